// A Docker Engine API of the test's own, on a unix socket in a temp dir (or on 127.0.0.1): the
// calls ddedge makes (/_ping, /containers/json, /events) answered as Docker answers them, from
// containers the test starts and stops. Its events stream is controllable (raw lines, an end),
// its listing can be held while events happen, and it can subscribe late the way Docker does
// (the answer's head is flushed before the subscription), so the watch's `since` is tested.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface FakeContainer {
  id: string;
  name: string;
  labels: Record<string, string>;
}

/** How events are written: Docker's current shape, its pre-1.22 one, or without the labels. */
export type EventShape = 'current' | 'legacy' | 'no-attributes';

interface Logged {
  readonly timeNano: bigint;
  readonly line: string;
}

export interface FakeEngineOptions {
  /** Listen on 127.0.0.1 instead of a unix socket. */
  tcp?: boolean;
  eventShape?: EventShape;
  /** Subscribe to events only once the next listing was answered (a late subscriber, covered by `since`). */
  lateSubscribe?: boolean;
  /** Accept connections and never answer: every request, or those of one path. */
  hang?: boolean | string;
}

let counter = 0;
export const containerId = (n = ++counter): string => n.toString(16).padStart(64, 'c');

export class FakeDockerEngine {
  readonly dir = mkdtempSync(join(tmpdir(), 'ddedge-engine-'));
  readonly socketPath = join(this.dir, 'docker.sock');
  /** Each request as "METHOD /path?query", in order of arrival. */
  readonly requests: string[] = [];
  readonly running = new Map<string, FakeContainer>();
  /** The client's port of each events stream over TCP. */
  readonly streamPorts: number[] = [];
  private readonly log: Logged[] = [];
  private readonly streams = new Set<http.ServerResponse>();
  private readonly sockets = new Set<Socket>();
  private server: http.Server | undefined;
  private port = 0;
  private heldListing: Promise<void> | undefined;
  private listingAnswered: (() => void)[] = [];

  constructor(readonly options: FakeEngineOptions = {}) {}

  /** The URL a watch is given. */
  get url(): string {
    return this.options.tcp ? `http://127.0.0.1:${this.port}` : `unix://${this.socketPath}`;
  }

  /** Event streams open now (subscribed). */
  get subscribers(): number {
    return this.streams.size;
  }

  async listen(): Promise<this> {
    rmSync(this.socketPath, { force: true });
    const server = http.createServer((request, response) => this.answer(request, response));
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) =>
      this.options.tcp ? server.listen(this.port, '127.0.0.1', resolve) : server.listen(this.socketPath, resolve),
    );
    if (this.options.tcp) this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  /** Stops answering: the streams end, connections close, the socket goes away. */
  async stopListening(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    for (const stream of this.streams) stream.end();
    this.streams.clear();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async close(): Promise<void> {
    await this.stopListening();
    rmSync(this.dir, { recursive: true, force: true });
  }

  start(container: FakeContainer): void {
    this.running.set(container.id, container);
    this.emit('start', container);
  }

  /** `docker stop`: die, then stop. */
  stop(id: string): void {
    const container = this.running.get(id);
    if (!container) throw new Error(`not running: ${id}`);
    this.running.delete(id);
    this.emit('die', container, { exitCode: '0' });
    this.emit('stop', container);
  }

  destroy(container: FakeContainer): void {
    this.running.delete(container.id);
    this.emit('destroy', container);
  }

  /** Writes bytes to every open events stream as they are. */
  sendRaw(text: string): void {
    for (const stream of this.streams) stream.write(text);
  }

  /** Ends every open events stream (the engine closing them). */
  endStreams(): void {
    for (const stream of this.streams) stream.end();
    this.streams.clear();
  }

  /** Forgets the events so far: a later `since` replays none of them (they aged out of the engine's buffer). */
  forgetEvents(): void {
    this.log.length = 0;
  }

  /** Holds each listing answer (its snapshot is taken at once) until the function returned is called. */
  holdListings(): () => void {
    let release = (): void => {};
    this.heldListing = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.heldListing = undefined;
      release();
    };
  }

  private emit(action: string, container: FakeContainer, extra: Record<string, string> = {}): void {
    const timeNano = BigInt(Date.now()) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n);
    const line = `${JSON.stringify(this.event(action, container, extra, timeNano))}\n`;
    this.log.push({ timeNano, line });
    this.sendRaw(line);
  }

  private event(action: string, container: FakeContainer, extra: Record<string, string>, timeNano: bigint): object {
    const time = Number(timeNano / 1_000_000_000n);
    const attributes = { ...container.labels, image: 'busybox', name: container.name, ...extra };
    switch (this.options.eventShape ?? 'current') {
      case 'legacy':
        return { status: action, id: container.id, from: 'busybox', time, timeNano: Number(timeNano) };
      case 'no-attributes':
        return { Type: 'container', Action: action, Actor: { ID: container.id }, time, timeNano: Number(timeNano) };
      default:
        return {
          Type: 'container',
          Action: action,
          Actor: { ID: container.id, Attributes: attributes },
          scope: 'local',
          time,
          timeNano: Number(timeNano),
        };
    }
  }

  private answer(request: http.IncomingMessage, response: http.ServerResponse): void {
    this.requests.push(`${request.method} ${request.url}`);
    const url = new URL(request.url ?? '/', 'http://engine');
    if (this.options.hang === true || this.options.hang === url.pathname) return;
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json', 'api-version': '1.43' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname === '/_ping') {
      response.writeHead(200, {
        'api-version': '1.43',
        server: 'FakeEngine/1.0 (linux)',
        'content-type': 'text/plain',
      });
      response.end('OK');
    } else if (url.pathname === '/containers/json') {
      void this.list(url, json);
    } else if (url.pathname === '/events') {
      void this.follow(url, response);
    } else {
      json(404, { message: `page not found: ${url.pathname}` });
    }
  }

  private async list(url: URL, json: (status: number, body: unknown) => void): Promise<void> {
    const filters = JSON.parse(url.searchParams.get('filters') ?? '{}') as { id?: string[] };
    const snapshot = [...this.running.values()]
      .filter((c) => !filters.id || filters.id.some((id) => c.id.startsWith(id)))
      .map((c) => ({ Id: c.id, Names: [`/${c.name}`], Image: 'busybox', Labels: c.labels, State: 'running' }));
    await this.heldListing;
    json(200, snapshot);
    const answered = this.listingAnswered;
    this.listingAnswered = [];
    for (const done of answered) done();
  }

  private async follow(url: URL, response: http.ServerResponse): Promise<void> {
    if (response.socket?.remotePort) this.streamPorts.push(response.socket.remotePort);
    response.writeHead(200, { 'content-type': 'application/json', 'api-version': '1.43' });
    response.flushHeaders();
    if (this.options.lateSubscribe) await new Promise<void>((resolve) => this.listingAnswered.push(resolve));
    const since = url.searchParams.get('since');
    if (since !== null) {
      const from = BigInt(since) * 1_000_000_000n;
      for (const { timeNano, line } of this.log) if (timeNano >= from) response.write(line);
    }
    if (!response.writableEnded) this.streams.add(response);
    response.on('close', () => this.streams.delete(response));
  }
}
