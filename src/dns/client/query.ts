// One question to one server: UDP first (re-sent while no answer comes), TCP when the UDP
// answer is truncated, one deadline over the whole exchange. An answer is used only when it
// carries our random ID, is a response, and echoes our question; UDP datagrams with another ID
// are dropped as spoofs (and counted, to say so if the deadline passes).
import { systemClock, type Clock } from '../../lib/clock.js';
import { ConfigError } from '../../lib/errors.js';
import { moduleOf } from '../../lib/lazy-import.js';
import { DnsError } from '../wire/errors.js';
import { decodeMessage, encodeMessage, typeCode } from '../wire/message.js';
import { nameToLabels } from '../wire/names.js';
import { randomQueryId } from './query-id.js';
import { sameName } from '../../lib/names.js';
import { CLASS_IN, typeName, type DnsAnswer, type DnsMessage, type DnsServer, type DnsType } from '../wire/types.js';
import { hostPort } from '../../lib/host-port.js';

export interface QueryOptions {
  /** The deadline over the whole exchange (UDP, re-sends, TCP retry). */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Ask the server to recurse (default true; false for questions to an authoritative server). */
  recursionDesired?: boolean;
  /** The deadline and the UDP re-sends run on it (default: the system's). */
  clock?: Clock;
}

/** At most this many UDP sends per exchange (the first and two re-sends). */
const UDP_SENDS = 3;
const MIN_RESEND_MS = 250;

/** Asks `server` for `name`/`type`. Resolves with any rcode (NXDOMAIN is an answer); throws DnsError otherwise. */
export async function queryDns(
  server: DnsServer,
  name: string,
  type: DnsType,
  options: QueryOptions,
): Promise<DnsAnswer> {
  try {
    nameToLabels(name);
  } catch (error) {
    throw new ConfigError(`"${name}" is not a valid DNS name: ${(error as Error).message}`);
  }
  const shown = showServer(server);
  const what = `${name} ${type} at ${shown}`;
  const controller = new AbortController();
  const clock = options.clock ?? systemClock;
  const cancelDeadline = clock.after(options.timeoutMs, () => controller.abort());
  const onCancel = () => controller.abort();
  options.signal?.addEventListener('abort', onCancel, { once: true });
  const exchange: Exchange = {
    server,
    name,
    code: typeCode(type),
    recursionDesired: options.recursionDesired ?? true,
    signal: controller.signal,
    what,
    timeoutMs: options.timeoutMs,
    clock,
    cancelled: () => Boolean(options.signal?.aborted),
  };
  try {
    if (options.signal?.aborted)
      throw new DnsError('timeout', `no answer to ${what}: the query was cancelled before it was sent`, shown);
    const address = await resolveHost(server.host, exchange);
    let message = await overUdp(exchange, address);
    let transport: DnsAnswer['transport'] = 'udp';
    if (message.truncated) {
      message = await overTcp(exchange, address);
      transport = 'tcp';
    }
    const { rcode, authoritative, truncated, answers, authority, additional } = message;
    return { rcode, authoritative, truncated, answers, authority, additional, transport };
  } finally {
    cancelDeadline();
    options.signal?.removeEventListener('abort', onCancel);
  }
}

interface Exchange {
  server: DnsServer;
  name: string;
  code: number;
  recursionDesired: boolean;
  signal: AbortSignal;
  what: string;
  timeoutMs: number;
  clock: Clock;
  /** The caller's signal fired (rather than our deadline). */
  cancelled: () => boolean;
}

export function showServer(server: DnsServer): string {
  return hostPort(server.host, server.port);
}

function newQuery(exchange: Exchange): { id: number; packet: Buffer } {
  const id = randomQueryId();
  const packet = encodeMessage({
    id,
    recursionDesired: exchange.recursionDesired,
    questions: [{ name: exchange.name, type: exchange.code, class: CLASS_IN }],
  });
  return { id, packet };
}

/** Checks that a decoded answer belongs to our question; throws `malformed` when not. */
function checkAnswer(message: DnsMessage, exchange: Exchange): DnsMessage {
  const fail = (why: string) =>
    new DnsError('malformed', `the answer to ${exchange.what} ${why}`, showServer(exchange.server));
  if (!message.response) throw fail('is not a response (QR bit clear)');
  if (message.opcode !== 0) throw fail(`has opcode ${message.opcode}`);
  // Servers may leave the question out of an error answer (FORMERR, NOTIMP, REFUSED).
  if (message.questions.length === 0 && message.rcode !== 0) return message;
  const [question] = message.questions;
  if (message.questions.length !== 1 || !question) throw fail(`has ${message.questions.length} questions`);
  if (!sameName(question.name, exchange.name) || question.type !== exchange.code || question.class !== CLASS_IN) {
    throw fail(`echoes another question (${question.name} ${typeName(question.type)})`);
  }
  return message;
}

function decode(packet: Buffer, exchange: Exchange): DnsMessage {
  try {
    return decodeMessage(packet);
  } catch (error) {
    if (error instanceof DnsError)
      throw new DnsError(
        'malformed',
        `the answer to ${exchange.what} is malformed: ${error.message}`,
        showServer(exchange.server),
      );
    throw error;
  }
}

function timeoutError(exchange: Exchange, transport: string, ignored: number): DnsError {
  const spoofs = ignored ? ` (${ignored} answer${ignored > 1 ? 's' : ''} with another ID ignored)` : '';
  const until = exchange.cancelled() ? 'before the query was cancelled' : `within ${exchange.timeoutMs} ms`;
  return new DnsError(
    'timeout',
    `no answer over ${transport} to ${exchange.what} ${until}${spoofs}`,
    showServer(exchange.server),
  );
}

function connectionError(exchange: Exchange, transport: string, error: NodeJS.ErrnoException): DnsError {
  // Refused: the address answers, but no name server listens on that port (a wrong --dns-server, one not started).
  const why =
    error.code === 'ECONNREFUSED'
      ? 'nothing answers DNS there (ECONNREFUSED): is a name server running at that address and port?'
      : (error.code ?? error.message);
  return new DnsError('connection', `${transport} query ${exchange.what} failed: ${why}`, showServer(exchange.server));
}

/** An IP literal as it is; a host name through the system's resolver (once, inside the deadline). */
async function resolveHost(host: string, exchange: Exchange): Promise<{ address: string; family: 4 | 6 }> {
  const { isIP } = await moduleOf(import('node:net'));
  const family = isIP(host);
  if (family === 4 || family === 6) return { address: host, family };
  const { lookup } = await moduleOf(import('node:dns/promises'));
  const found = await Promise.race([
    lookup(host).catch((error: NodeJS.ErrnoException) => {
      throw new DnsError(
        'connection',
        `cannot find the address of DNS server "${host}": ${error.code ?? error.message}`,
        showServer(exchange.server),
      );
    }),
    aborted(exchange.signal).then(() => {
      throw timeoutError(exchange, 'lookup', 0);
    }),
  ]);
  return { address: found.address, family: found.family === 6 ? 6 : 4 };
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) =>
    signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true }),
  );
}

async function overUdp(exchange: Exchange, address: { address: string; family: 4 | 6 }): Promise<DnsMessage> {
  const dgram = await moduleOf(import('node:dgram'));
  const { id, packet } = newQuery(exchange);
  const socket = dgram.createSocket(address.family === 6 ? 'udp6' : 'udp4');
  let ignored = 0;
  let cancelResend = (): void => {};
  try {
    return await new Promise<DnsMessage>((resolve, reject) => {
      if (exchange.signal.aborted) return reject(timeoutError(exchange, 'UDP', 0));
      exchange.signal.addEventListener('abort', () => reject(timeoutError(exchange, 'UDP', ignored)), { once: true });
      socket.on('error', (error) => reject(connectionError(exchange, 'UDP', error)));
      socket.on('message', (datagram) => {
        // A connected socket only receives from the server; the ID tells our answer from spoofs and stale ones.
        if (datagram.length >= 2 && datagram.readUInt16BE(0) !== id) return void ignored++;
        try {
          resolve(checkAnswer(decode(datagram, exchange), exchange));
        } catch (error) {
          reject(error);
        }
      });
      let sends = 0;
      const send = () => {
        socket.send(packet, (error) => error && reject(connectionError(exchange, 'UDP', error)));
        const resendMs = Math.max(MIN_RESEND_MS, Math.floor(exchange.timeoutMs / UDP_SENDS));
        if (++sends < UDP_SENDS) cancelResend = exchange.clock.after(resendMs, send);
      };
      // Node passes a connect failure (no route, say) to this callback rather than emitting it.
      socket.connect(exchange.server.port, address.address, ((error?: NodeJS.ErrnoException) =>
        error ? reject(connectionError(exchange, 'UDP', error)) : send()) as () => void);
    });
  } finally {
    cancelResend();
    socket.close();
  }
}

async function overTcp(exchange: Exchange, address: { address: string; family: 4 | 6 }): Promise<DnsMessage> {
  const net = await moduleOf(import('node:net'));
  const { id, packet } = newQuery(exchange);
  const socket = net.connect({ host: address.address, port: exchange.server.port });
  try {
    return await new Promise<DnsMessage>((resolve, reject) => {
      if (exchange.signal.aborted) return reject(timeoutError(exchange, 'TCP', 0));
      exchange.signal.addEventListener('abort', () => reject(timeoutError(exchange, 'TCP', 0)), { once: true });
      const prefix = Buffer.alloc(2);
      prefix.writeUInt16BE(packet.length);
      socket.on('connect', () => socket.write(Buffer.concat([prefix, packet])));
      socket.on('error', (error) => reject(connectionError(exchange, 'TCP', error)));
      let received = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        // The 2-byte length caps an answer at 65535 bytes; anything after it is not ours.
        if (received.length < 2 || received.length < 2 + received.readUInt16BE(0)) return;
        const answer = received.subarray(2, 2 + received.readUInt16BE(0));
        try {
          const message = decode(answer, exchange);
          if (message.id !== id)
            throw new DnsError(
              'malformed',
              `the TCP answer to ${exchange.what} carries another ID`,
              showServer(exchange.server),
            );
          resolve(checkAnswer(message, exchange));
        } catch (error) {
          reject(error);
        }
      });
      socket.on('close', () =>
        reject(
          received.length
            ? new DnsError(
                'malformed',
                `the TCP answer to ${exchange.what} is cut off (${received.length} bytes, then the connection closed)`,
                showServer(exchange.server),
              )
            : new DnsError(
                'connection',
                `the TCP connection for ${exchange.what} closed without an answer`,
                showServer(exchange.server),
              ),
        ),
      );
    });
  } finally {
    socket.destroy();
  }
}
