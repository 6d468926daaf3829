// undici's MockAgent for API unit tests: one per test, closed after it, never the network.
import { MockAgent } from 'undici';
import { afterEach } from 'vitest';

export const MOCK_ORIGIN = 'https://api.test.invalid';

/** A successful envelope around responseData; `extra` overrides envelope fields. */
export const envelope = (responseData: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    success: true,
    errorCode: 0,
    errorCodeMsg: '',
    action: 'x',
    version: '1.0.26',
    messages: [],
    responseData,
    ...extra,
  });

/** Returns a function that makes a fresh MockAgent for the current test. */
export function useMockAgent(): { create(): MockAgent; current(): MockAgent } {
  let agent: MockAgent | undefined;
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
  });
  return {
    create() {
      agent = new MockAgent();
      agent.disableNetConnect();
      return agent;
    },
    current() {
      if (!agent) throw new Error('no MockAgent in this test');
      return agent;
    },
  };
}

/** What a hostile provider does to a request on its way to the sandbox, and to the answer on its way back. */
export interface ProviderShape {
  /** The form fields forwarded (e.g. `page` dropped: a provider that ignores it). */
  request?: (operation: string, fields: URLSearchParams) => void;
  /** The envelope answered (e.g. queryInfo.total removed). */
  // biome-ignore lint/suspicious/noExplicitAny: the sandbox's JSON answer, which tests reshape freely
  answer?: (operation: string, fields: URLSearchParams, envelope: Record<string, any>) => void;
  /** Writes (anything but a list) wait for this before they reach the sandbox. */
  holdWrites?: Promise<void>;
  /** Answered 503 without reaching the sandbox when this says so (a provider that gives out half-way). */
  unavailable?: (operation: string, fields: URLSearchParams) => boolean;
}

export interface HostileProvider {
  url: string;
  /** Operations in the order they arrived, `service/dnslist` etc. */
  operations: string[];
  /** Operations that have been passed to the sandbox and answered (or failed), in whatever order. */
  readonly finished: number;
  close(): Promise<void>;
}

/**
 * A small HTTP provider in front of the sandbox (which keeps the real state) that bends its
 * requests and answers into the shapes real providers have shown: no `total`, `page`
 * ignored, short pages, writes answered late.
 */
export async function hostileProvider(target: string, shape: ProviderShape): Promise<HostileProvider> {
  const { createServer } = await import('node:http');
  const operations: string[] = [];
  let finished = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const operation = (req.url ?? '').split('/').filter(Boolean).join('/');
      operations.push(operation);
      const fields = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      shape.request?.(operation, fields);
      if (shape.holdWrites && !operation.endsWith('list')) await shape.holdWrites;
      if (shape.unavailable?.(operation, fields)) {
        finished++;
        return void res.writeHead(503, { 'content-type': 'text/html' }).end('<html>503</html>');
      }
      try {
        const upstream = await fetch(new URL(req.url ?? '/', target), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: fields.toString(),
        });
        // biome-ignore lint/suspicious/noExplicitAny: the sandbox's JSON answer, which tests reshape freely
        const envelope = (await upstream.json()) as Record<string, any>;
        shape.answer?.(operation, fields, envelope);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(envelope));
      } catch {
        res.destroy();
      } finally {
        finished++;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as import('node:net').AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    operations,
    get finished() {
      return finished;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
