// "Visible" means every authoritative server of the zone (or each --dns-server) answers the
// TXT question with the value. Servers are asked directly, again and again with a growing
// pause, until all have it or the propagation timeout runs out; a server that fails to answer
// is simply asked again. No fixed sleep: the answer is checked, not hoped for. A final answer
// (the zone does not exist) stops the wait at once; a long wait says what it waits for, every
// few seconds.
import { DnsError } from '../dns/wire/errors.js';
import { type Clock, sleepOn, systemClock } from '../lib/clock.js';
import { DdedgeError, ExitCode } from '../lib/errors.js';
import type { Logger } from '../lib/log.js';
import { hostPort } from '../lib/host-port.js';
import { counted } from '../lib/counted.js';

export interface NameServer {
  host: string;
  port: number;
  /** The server's host name, when it was found through NS records. */
  name?: string;
}

/** The DNS side, injected so that the core does not care how questions travel. */
export interface TxtLookup {
  /** The zone's authoritative servers (NS of the zone, with their addresses). */
  authoritativeServers(zone: string, timeoutMs: number, signal: AbortSignal): Promise<NameServer[]>;
  /** The TXT values (each the joined strings of one record) `server` answers for `name`. */
  txtValues(server: NameServer, name: string, timeoutMs: number, signal: AbortSignal): Promise<string[]>;
}

export interface VisibilityRequest {
  name: string;
  value: string;
  zone: string;
  /** Given servers replace discovery. */
  servers: NameServer[];
  timeoutMs: number;
  /** Per question; capped by what is left of timeoutMs. */
  queryTimeoutMs: number;
  lookup: TxtLookup;
  logger: Logger;
  clock?: Clock;
}

export interface Visibility {
  servers: string[];
  waitedMs: number;
}

/** Ran out of time: the record stays in place for the client's cleanup (exit 4, retry later). */
export class PropagationTimeoutError extends DdedgeError {
  constructor(message: string) {
    super(message, ExitCode.transient);
  }
}

/** The zone's name servers cannot be found, and a DNS answer said so for good (NXDOMAIN, no NS): no wait cures it. */
export class NameServersAbsentError extends DdedgeError {
  constructor(message: string) {
    super(message, ExitCode.transient);
  }
}

const FIRST_PAUSE_MS = 100;
const LONGEST_PAUSE_MS = 2000;
/** A wait says what it still waits for at most this often (and not before it has lasted this long). */
const PROGRESS_EVERY_MS = 5000;

const showServer = (s: NameServer): string =>
  s.name ? `${s.name} (${hostPort(s.host, s.port)})` : hostPort(s.host, s.port);

export async function waitUntilVisible(request: VisibilityRequest): Promise<Visibility> {
  const clock = request.clock ?? systemClock;
  const started = clock.now();
  const deadline = started + request.timeoutMs;
  const controller = new AbortController();
  const cancel = clock.after(request.timeoutMs, () => controller.abort());
  const left = () => deadline - clock.now();
  const problems = new Map<string, string>();
  let lastSaid = started;
  const sayWhatIsAwaited = () => {
    if (clock.now() - lastSaid < PROGRESS_EVERY_MS) return;
    lastSaid = clock.now();
    const detail = [...problems].map(([where, what]) => `${where}: ${what}`).join('; ');
    request.logger.info(
      `waiting for ${request.name} TXT to be visible (${detail || 'no answer yet'}); ` +
        `${Math.max(0, Math.ceil(left() / 1000))} s left`,
    );
  };
  const rest = async (pause: number): Promise<number> => {
    await sleepOn(clock, Math.max(0, Math.min(pause, left())));
    sayWhatIsAwaited();
    return Math.min(pause * 2, LONGEST_PAUSE_MS);
  };
  let servers = request.servers;
  let pause = FIRST_PAUSE_MS;
  try {
    while (!servers.length) {
      try {
        servers = await request.lookup.authoritativeServers(
          request.zone,
          Math.min(request.queryTimeoutMs, left()),
          controller.signal,
        );
        if (!servers.length) problems.set(request.zone, 'no authoritative name server found');
      } catch (error) {
        if (error instanceof DnsError && error.kind === 'absent') throw absent(request, error);
        problems.set(request.zone, `cannot find its name servers: ${(error as Error).message}`);
      }
      if (!servers.length) pause = await rest(pause);
      if (left() <= 0) throw timeout(request, problems);
    }
    request.logger.debug('waiting for the challenge to be visible', {
      name: request.name,
      servers: servers.map(showServer).join(', '),
    });
    // A name server counts once, whichever of its addresses answers: a machine without IPv6
    // cannot reach the AAAA of a server that its IPv4 address serves as well.
    const pending = new Map<string, NameServer[]>();
    for (const server of servers) {
      const key = server.name ?? showServer(server);
      pending.set(key, [...(pending.get(key) ?? []), server]);
    }
    const shown = [...pending.keys()];
    for (;;) {
      await Promise.all(
        [...pending].map(async ([key, addresses]) => {
          const seen = await Promise.all(
            addresses.map((server) => showsValue(request, server, left, controller.signal, problems)),
          );
          if (seen.includes(true)) {
            pending.delete(key);
            for (const server of addresses) problems.delete(showServer(server));
          }
        }),
      );
      if (!pending.size) return { servers: shown, waitedMs: clock.now() - started };
      if (left() <= 0) throw timeout(request, problems);
      pause = await rest(pause);
      if (left() <= 0) throw timeout(request, problems);
    }
  } finally {
    cancel();
  }
}

async function showsValue(
  request: VisibilityRequest,
  server: NameServer,
  left: () => number,
  signal: AbortSignal,
  problems: Map<string, string>,
): Promise<boolean> {
  try {
    const values = await request.lookup.txtValues(
      server,
      request.name,
      Math.max(1, Math.min(request.queryTimeoutMs, left())),
      signal,
    );
    if (values.includes(request.value)) return true;
    problems.set(
      showServer(server),
      values.length ? `answers ${counted(values.length, 'other value')}` : 'answers without it',
    );
  } catch (error) {
    // Cut short by the propagation deadline: what the server did before says more.
    const key = showServer(server);
    problems.set(
      key,
      signal.aborted ? (problems.get(key) ?? 'no answer before the deadline') : (error as Error).message,
    );
  }
  return false;
}

function absent(request: VisibilityRequest, error: DnsError): NameServersAbsentError {
  return new NameServersAbsentError(
    `${request.name} TXT "${request.value}" cannot be checked: ${error.message}, so its name servers cannot be ` +
      'asked; the record stays for the cleanup (is the zone delegated yet? --dns-server names servers to ask instead)',
  );
}

function timeout(request: VisibilityRequest, problems: Map<string, string>): PropagationTimeoutError {
  const detail = [...problems].map(([where, what]) => `${where}: ${what}`).join('; ');
  return new PropagationTimeoutError(
    `${request.name} TXT "${request.value}" is not visible after ` +
      `${(request.timeoutMs / 1000).toFixed(request.timeoutMs % 1000 ? 1 : 0)}s (${detail || 'no answer'}); ` +
      'the record stays for the cleanup (raise --propagation-timeout, or check --dns-server)',
  );
}
