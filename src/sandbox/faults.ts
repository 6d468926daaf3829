// Faults on demand: make chosen operations slow, fail with 5xx, reset, answer garbage, or refuse (the API's error 105,
// as the provider answers a value it does not take), or make the change and lose the answer (lost-answer: the
// connection is reset after the write, as a timeout or a dropped link does to a real write), so that tests (and users'
// scripts) can see how a client copes. Written `<target>=<kind>`,
// where target is `dyndns`, `module/action` or `*`; kind is one of FAULT_KINDS, optionally
// `:<ms>` for slow/hang and `x<count>` to fault only the first <count> requests.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ConfigError } from '../lib/errors.js';
import { nearestNames } from '../lib/nearest-names.js';

export const FAULT_KINDS = [
  'slow',
  'hang',
  '500',
  '502',
  '503',
  'reset',
  'garbage',
  'empty',
  'truncated',
  'huge',
  'refuse',
  'lost-answer',
] as const;
type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
  target: string;
  kind: FaultKind;
  delayMs: number;
  remaining: number;
}

/** The longest delay a timer can wait: beyond it Node fires after 1 ms. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/**
 * `targets`: the operations (`module/action`) the sandbox serves. A fault aimed elsewhere would
 * never fire, and whatever relied on it would pass for the wrong reason: refused at start.
 */
export function parseFault(text: string, targets?: readonly string[]): Fault {
  // A kind is a word or a status (`500`), so `500x2` reads as 500, twice.
  const match = /^([\w*/-]+)=([a-z]+(?:-[a-z]+)?|\d{3})(?::(\d+))?(?:x(\d+))?$/.exec(text.trim());
  if (!match || !(FAULT_KINDS as readonly string[]).includes(match[2]!)) {
    throw new ConfigError(
      `--fault: "${text}" is not <target>=<kind>[:<ms>][x<count>] with kind one of ${FAULT_KINDS.join(', ')}`,
    );
  }
  const target = match[1]!;
  if (targets && target !== '*' && target !== 'dyndns' && !targets.includes(target)) {
    const near = nearestNames(target, ['dyndns', ...targets]).slice(0, 3);
    throw new ConfigError(
      `--fault: "${text}": the sandbox has no ${target} to fault; give dyndns, * or ` +
        `module/action${near.length ? ` (did you mean ${near.join(' or ')}?)` : ''}`,
    );
  }
  const delayMs = Number(match[3] ?? 30_000);
  if (delayMs > MAX_DELAY_MS) throw new ConfigError(`--fault: "${text}": a delay is at most ${MAX_DELAY_MS} ms`);
  const remaining = match[4] ? Number(match[4]) : Infinity;
  if (remaining < 1) throw new ConfigError(`--fault: "${text}": the count after x is at least 1`);
  return { target, kind: match[2] as FaultKind, delayMs, remaining };
}

/** A fault written back as it was given (`service/dnslist=502x2`, `*=slow:3000x1`), for the banner. */
export function describeFault(fault: Fault): string {
  const delay = fault.kind === 'slow' || fault.kind === 'hang' ? `:${fault.delayMs}` : '';
  const count = Number.isFinite(fault.remaining) ? `x${fault.remaining}` : '';
  return `${fault.target}=${fault.kind}${delay}${count}`;
}

/** The fault to apply to a request for `target`, counting it down. */
export function takeFault(faults: Fault[], target: string): Fault | undefined {
  const fault = faults.find((f) => f.remaining > 0 && (f.target === target || f.target === '*'));
  if (fault) fault.remaining--;
  return fault;
}

const HUGE_BYTES = 50 * 1024 * 1024;

/**
 * Answers with the fault. Returns true when the request was answered (or dropped), false
 * when it should go on normally (after a delay).
 */
export async function applyFault(fault: Fault, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  switch (fault.kind) {
    case 'slow':
      await new Promise((r) => setTimeout(r, fault.delayMs));
      return res.destroyed;
    case 'hang':
      await new Promise<void>((r) => {
        const timer = setTimeout(r, fault.delayMs);
        req.socket.once('close', () => {
          clearTimeout(timer);
          r();
        });
      });
      if (!res.destroyed) req.socket.destroy();
      return true;
    case '500':
    case '502':
    case '503':
      res
        .writeHead(Number(fault.kind), { 'content-type': 'text/html' })
        .end(`<html><body>${fault.kind} sandbox fault</body></html>`);
      return true;
    case 'reset':
      req.socket.destroy();
      return true;
    case 'garbage':
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('<html><body>Service Temporarily Unavailable</body></html>');
      return true;
    case 'empty':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '0' }).end();
      return true;
    case 'truncated':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '400' });
      res.write('{"success":true,"errorCode":0,"responseData":{"dns":[{"entityID":"1"');
      setTimeout(() => req.socket.destroy(), 20);
      return true;
    case 'lost-answer':
      // Served as usual; the server drops the connection instead of answering (answerLost).
      return false;
    case 'refuse':
      // Nothing is done: the provider's answer to a parameter it does not accept (a value, a name).
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          success: false,
          errorCode: 105,
          errorCodeMsg: 'Syntax error: invalid parameter',
          messages: ['sandbox fault: refused'],
          responseData: [],
        }),
      );
      return true;
    case 'huge': {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'A');
      for (let sent = 0; sent < HUGE_BYTES && !res.destroyed; sent += chunk.length) {
        if (!res.write(chunk)) await drainOrClose(res);
      }
      res.end();
      return true;
    }
  }
}

/** Waits for 'drain' or 'close', whichever comes first, and leaves no listener behind (one per
 * wait piled up into a MaxListenersExceededWarning over a 50 MB answer). */
function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}

/** Whether the request was served (the change made) but its answer is to be lost: the connection reset instead. */
export const answerLost = (fault: Fault | undefined): boolean => fault?.kind === 'lost-answer';
