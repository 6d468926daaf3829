// One e-mail through SMTP (RFC 5321): the greeting, EHLO, STARTTLS where the server offers it
// (required beyond loopback, so a password and a message never cross a network in clear text;
// smtps:// is TLS from the start), AUTH PLAIN or LOGIN, the envelope, the message, QUIT. Every
// reply is bounded in bytes and every step in time; a 4xx reply is worth a retry, a 5xx is not.
import { connect as tcpConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { isLoopbackHost } from '../../lib/address.js';
import { outsideText } from '../../lib/outside-text.js';

export interface MailRequest {
  host: string;
  port: number;
  /** implicit: TLS from the first byte (smtps://); starttls: upgraded after EHLO (smtp://). */
  tls: 'implicit' | 'starttls';
  user?: string;
  password?: string;
  from: string;
  to: string[];
  /** The whole message, headers and body, lines ending in CRLF. */
  message: string;
  timeoutMs: number;
}

/** A failed delivery; `retry` when the server or the network said to try later. */
export class MailError extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
  ) {
    super(message);
  }
}

/** The most a reply may hold: far above any server's, a bound on what is kept. */
const REPLY_BYTES = 64 * 1024;

interface Reply {
  code: number;
  lines: string[];
}

export async function sendMail(request: MailRequest): Promise<string> {
  const where = `${request.host}:${request.port}`;
  let socket: Socket = await open(request);
  const timer = setTimeout(
    () => socket.destroy(new MailError(`no answer from ${where} in time`, true)),
    request.timeoutMs,
  );
  try {
    let replies = replyReader(socket, where);
    const step = async (line: string | undefined, expected: number[], what: string): Promise<Reply> => {
      if (line !== undefined) socket.write(`${line}\r\n`);
      const reply = await replies.next();
      if (!expected.includes(reply.code)) {
        const text = outsideText(reply.lines.join(' '), 300);
        throw new MailError(`${where} refused ${what}: ${reply.code} ${text}`, reply.code < 500 || reply.code === 421);
      }
      return reply;
    };
    await step(undefined, [220], 'the connection');
    let offers = capabilities(await step('EHLO ddedge', [250], 'EHLO'));
    if (request.tls === 'starttls') {
      if (offers.has('STARTTLS')) {
        await step('STARTTLS', [220], 'STARTTLS');
        socket = await upgrade(socket, request.host);
        replies = replyReader(socket, where);
        offers = capabilities(await step('EHLO ddedge', [250], 'EHLO'));
      } else if (!isLoopbackHost(request.host)) {
        throw new MailError(`${where} offers no STARTTLS: ddedge sends mail beyond loopback only over TLS`, false);
      }
    }
    if (request.user !== undefined) await authenticate(request, offers, step, where);
    await step(`MAIL FROM:<${request.from}>`, [250], 'the sender');
    for (const to of request.to) await step(`RCPT TO:<${to}>`, [250, 251], `the recipient ${to}`);
    await step('DATA', [354], 'DATA');
    const final = await step(`${dotStuffed(request.message)}\r\n.`, [250], 'the message');
    socket.write('QUIT\r\n');
    return `${final.code} ${outsideText(final.lines.join(' '), 200)}`;
  } finally {
    clearTimeout(timer);
    socket.end();
    socket.destroy();
  }
}

async function authenticate(
  request: MailRequest,
  offers: Set<string>,
  step: (line: string | undefined, expected: number[], what: string) => Promise<Reply>,
  where: string,
): Promise<void> {
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  const mechanisms = [...offers].find((o) => o.startsWith('AUTH '))?.split(' ') ?? [];
  if (mechanisms.includes('PLAIN'))
    await step(`AUTH PLAIN ${b64(`\0${request.user}\0${request.password ?? ''}`)}`, [235], 'the credentials');
  else if (mechanisms.includes('LOGIN')) {
    await step('AUTH LOGIN', [334], 'AUTH LOGIN');
    await step(b64(request.user ?? ''), [334], 'the user');
    await step(b64(request.password ?? ''), [235], 'the credentials');
  } else throw new MailError(`${where} offers neither AUTH PLAIN nor AUTH LOGIN for the user given`, false);
}

function open(request: MailRequest): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket =
      request.tls === 'implicit'
        ? tlsConnect({ host: request.host, port: request.port, servername: serverName(request.host) }, () =>
            resolve(socket),
          )
        : tcpConnect({ host: request.host, port: request.port }, () => resolve(socket));
    socket.once('error', (error) =>
      reject(new MailError(`cannot reach ${request.host}:${request.port}: ${error.message}`, true)),
    );
    socket.setTimeout(request.timeoutMs, () => socket.destroy(new Error('no connection in time')));
  });
}

function upgrade(socket: Socket, host: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const secure = tlsConnect({ socket, servername: serverName(host) }, () => resolve(secure));
    secure.once('error', (error) => reject(new MailError(`STARTTLS with ${host} failed: ${error.message}`, true)));
  });
}

/** SNI takes a host name, never an address. */
const serverName = (host: string): string | undefined => (isIP(host) ? undefined : host);

/** Replies one by one, each whole (`250-…` lines up to the `250 …` one), bounded in bytes. */
function replyReader(socket: Socket, where: string): { next(): Promise<Reply> } {
  let buffer = '';
  let lines: string[] = [];
  const ready: Reply[] = [];
  let waiting: { resolve(reply: Reply): void; reject(error: Error): void } | undefined;
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure ??= error instanceof MailError ? error : new MailError(`${where}: ${error.message}`, true);
    waiting?.reject(failure);
  };
  socket.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    if (buffer.length > REPLY_BYTES)
      return fail(new MailError(`${where} sent a reply over ${REPLY_BYTES} bytes`, true));
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      const line = buffer.slice(0, end).replace(/\r$/, '');
      buffer = buffer.slice(end + 1);
      const match = /^(\d{3})([ -])(.*)$/.exec(line);
      if (!match) return fail(new MailError(`${where} sent a line that is no SMTP reply`, true));
      lines.push(match[3]!);
      if (match[2] === ' ') {
        const reply = { code: Number(match[1]), lines };
        lines = [];
        if (waiting) {
          waiting.resolve(reply);
          waiting = undefined;
        } else ready.push(reply);
      }
    }
  });
  socket.on('error', fail);
  socket.on('close', () => fail(new MailError(`${where} closed the connection`, true)));
  return {
    next: () =>
      ready.length
        ? Promise.resolve(ready.shift()!)
        : failure
          ? Promise.reject(failure)
          : new Promise((resolve, reject) => (waiting = { resolve, reject })),
  };
}

function capabilities(ehlo: Reply): Set<string> {
  return new Set(ehlo.lines.slice(1).map((line) => line.trim().toUpperCase()));
}

/** A line of the message that begins with "." gets another (RFC 5321 4.5.2). */
const dotStuffed = (message: string): string => message.replace(/\r\n$/, '').replace(/(^|\r\n)\./g, '$1..');
