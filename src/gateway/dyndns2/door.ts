// One dyndns2 request, from what the client sent to the answer it reads: the key from the
// credentials (`badauth` and 401 otherwise; a source past its wrong tries is refused with 429
// before its password is looked at, guess-limit.ts), the addresses (given, or the
// request's own source when public), one line per host name in the order asked, and with the
// FRITZ!Box's `ip6lanprefix` the AAAA of every host behind the router that --prefix-host names
// and the key may change. The updates of one request in one zone go as one message: one read
// of the zone, their writes all made or none. A refusal is logged at warn with its reason (the router shows only the
// code); nothing a client sent that may be its password reaches a log line.
import { joinIdentifier } from '../../lib/interface-id.js';
import { nonPublicReason, type RecordType } from '../../lib/address.js';
import { grantsFor } from '../keys/grants.js';
import type { RefusalLog } from '../limits/refusal-log.js';
import { isKeyName, keyOf, refusedCredentialsReason } from '../keys/credentials.js';
import { keyNameOf, type GatewayKeys } from '../keys/keys-file.js';
import type { GuessLimit } from '../limits/guess-limit.js';
import {
  decideHost,
  isPending,
  updateHosts,
  type Dyndns2Code,
  type HostResult,
  type HostUpdateDeps,
  type PendingHost,
  type WantedAddresses,
} from './host-update.js';
import type { Dyndns2Request } from './request.js';

/** A LAN's prefix length: where the hosts behind the router sit. */
const LAN_PREFIX_LENGTH = 64;

export interface DoorDeps extends HostUpdateDeps {
  /** --prefix-host: canonical interface identifier by host name. */
  prefixHosts: Map<string, string>;
  /** --allow-private-ip: addresses that are not public unicast are accepted. */
  allowPrivateIp: boolean;
  guesses: GuessLimit;
  /** Answers given, by code (for /metrics). */
  counts: Map<Dyndns2Code, number>;
  refusals: RefusalLog;
}

export interface DoorAnswer {
  status: 200 | 401 | 429;
  body: string;
  /** The connection is closed after it: a guesser's keep-alive connection is not kept for its next guess. */
  close?: boolean;
}

/** The answer: at once when no host needs a provider call (every `nochg`), else a promise. */
export function answerRequest(
  request: Dyndns2Request,
  client: string,
  deps: DoorDeps,
): DoorAnswer | Promise<DoorAnswer> {
  const keys = deps.keys();
  const key = requestKey(request, client, deps, keys);
  if (typeof key !== 'string') return key;
  deps.guesses.succeeded(client, key);
  let hidden: string[] | undefined;
  // Only a request that is logged needs its secrets listed.
  const scrub = (text: string) => {
    hidden ??= secretsOf(request, keys.keys.values());
    return hidden.reduce((t, secret) => t.split(secret).join('***'), text);
  };
  return answerHosts(request, key, client, deps, scrub);
}

/**
 * The `badauth` answer when the credentials given are wrong or the source is past its wrong tries (logged and counted
 * as answerRequest would), undefined when they are a key's: a POST's credentials given outside its body are checked
 * before its body is read.
 */
export function credentialsRefusal(request: Dyndns2Request, client: string, deps: DoorDeps): DoorAnswer | undefined {
  const key = requestKey(request, client, deps, deps.keys());
  return typeof key === 'string' ? undefined : key;
}

/** One more answer with this code (for /metrics). */
function count(deps: DoorDeps, code: Dyndns2Code): void {
  deps.counts.set(code, (deps.counts.get(code) ?? 0) + 1);
}

/** The key the request's credentials are, or the `badauth` answer (logged and counted) when they are none. */
function requestKey(request: Dyndns2Request, client: string, deps: DoorDeps, keys: GatewayKeys): string | DoorAnswer {
  const user = request.credentials?.user;
  // The user name is shown only when it names a key: a password typed into the user field is not.
  const known = user !== undefined && isKeyName(keys, user) ? keyNameOf(user) : undefined;
  // Judged before the password is: a right guess and a wrong one from a source past its limit get the same answer at
  // once.
  const limited = deps.guesses.refusal(client, known);
  // A request naming no key is no "unsigned" DNS update: say what a dyndns2 client got wrong.
  const keyless = user === undefined ? 'with no credentials' : 'with bad credentials';
  if (limited) {
    deps.refusals.refused(
      'badauth',
      { client, kind: 'request', keyless, ...(known ? { key: known } : {}) },
      `dyndns2: refused before the password was looked at: ${limited}`,
    );
    count(deps, 'badauth');
    return { status: 429, body: 'badauth\n', close: true };
  }
  const key = keyOf(keys, request.credentials);
  if (key) return key;
  // A client's first try without credentials (it waits for the 401) is no guess, and keeps its connection.
  if (request.credentials) deps.guesses.failed(client, known);
  const why = refusedCredentialsReason(user, known !== undefined);
  deps.refusals.refused(
    'badauth',
    { client, kind: 'request', keyless, ...(known ? { key: known } : {}) },
    `dyndns2: ${why}`,
  );
  count(deps, 'badauth');
  return { status: 401, body: 'badauth\n', close: request.credentials !== undefined };
}

/** The 200 answer: one line per host name, each counted by its code. */
function reply(deps: DoorDeps, codes: string[]): DoorAnswer {
  for (const line of codes) count(deps, line.split(' ')[0] as Dyndns2Code);
  return { status: 200, body: codes.join('\n') + '\n' };
}

/** The answer for a request whose key is known: each host name decided, and updated zone by zone. */
function answerHosts(
  request: Dyndns2Request,
  key: string,
  client: string,
  deps: DoorDeps,
  scrub: (text: string) => string,
): DoorAnswer | Promise<DoorAnswer> {
  const refused = (code: Dyndns2Code, why: string) => {
    deps.refusals.refused(code, { key, verified: true, client }, `dyndns2: ${scrub(why)}`);
    return code;
  };
  if (request.tooMany) return reply(deps, [refused('numhost', 'more host names than one request may name (20)')]);
  if (!request.hostnames?.length) return reply(deps, [refused('notfqdn', 'the request names no hostname')]);

  const addresses = wantedAddresses(request, client, deps.allowPrivateIp);
  const decided = request.hostnames.map(({ given, name }): HostResult | PendingHost => {
    if (!name) return { code: 'notfqdn', why: `"${given}" is not a full host name` };
    if (typeof addresses === 'string') return { code: 'dnserr', why: `${name}: ${addresses}` };
    return decideHost(name, addresses, key, deps);
  });
  const behind = hostsBehind(request, key, client, deps, scrub);
  const runs = updatesByZone([...decided, ...behind.map((b) => b.decided)], key, client, deps);
  const settled = (d: HostResult | PendingHost) => (isPending(d) ? runs.get(d.zone)! : d);
  const shown = typeof addresses === 'string' ? '' : Object.values(addresses).join(',');
  const lines = (done: HostResult[]) =>
    reply(
      deps,
      done.map(({ code, why }) =>
        code === 'good' || code === 'nochg' ? `${code} ${shown}` : refused(code, why ?? code),
      ),
    );
  const logged = behind.map(async ({ host, address, decided: d }) => {
    const result = await settled(d);
    if (result.code === 'good' || result.code === 'nochg')
      deps.logger.debug(`gateway: dyndns2: ${host} AAAA ${address} (behind the router): ${result.code}`);
    else
      deps.refusals.refused(
        result.code,
        { key, verified: true, client },
        `dyndns2: ${host} AAAA ${address} (behind the router): ${scrub(result.why ?? result.code)}`,
      );
  });
  if (!runs.size) {
    void Promise.all(logged);
    return lines(decided as HostResult[]);
  }
  return Promise.all([Promise.all(decided.map(settled)), ...logged]).then(([done]) => lines(done));
}

/**
 * The pending updates started, one message per zone: one read of the zone, all made or none. By zone; hosts decided
 * already (not pending) start nothing.
 */
function updatesByZone(
  decided: (HostResult | PendingHost)[],
  key: string,
  client: string,
  deps: DoorDeps,
): Map<string, Promise<HostResult>> {
  const byZone = new Map<string, PendingHost[]>();
  for (const d of decided) if (isPending(d)) byZone.set(d.zone, [...(byZone.get(d.zone) ?? []), d]);
  return new Map([...byZone].map(([zone, hosts]) => [zone, updateHosts(zone, hosts, key, client, deps)]));
}

/** nonPublicReason, remembered for the addresses seen lately: routers send the same one again and again. */
const publicChecks = new Map<string, string | undefined>();
function publicCheck(address: string): string | undefined {
  if (publicChecks.has(address)) return publicChecks.get(address);
  if (publicChecks.size >= 1024) publicChecks.clear();
  const reason = nonPublicReason(address);
  publicChecks.set(address, reason);
  return reason;
}

/** The addresses asked for, or why none can be set. */
function wantedAddresses(request: Dyndns2Request, client: string, allowPrivateIp: boolean): WantedAddresses | string {
  if (request.addressProblem) return request.addressProblem;
  const wanted: WantedAddresses = {};
  if (request.ipv4) wanted.A = request.ipv4;
  if (request.ipv6) wanted.AAAA = request.ipv6;
  const given = Object.keys(wanted).length > 0;
  if (!given) {
    // dyndns2's rule: no address given means the address the request came from.
    const source = client.replace(/^::ffff:(?=\d+\.)/, '');
    wanted[(source.includes(':') ? 'AAAA' : 'A') as RecordType] = source;
  }
  if (!allowPrivateIp) {
    for (const address of Object.values(wanted)) {
      const reason = publicCheck(address);
      if (!reason) continue;
      const whose = given ? 'the address' : 'no address given, and the request comes from';
      return (
        `${whose} ${address}, which is not public (${reason}); ` +
        'the gateway sets only public addresses unless started with --allow-private-ip'
      );
    }
  }
  return wanted;
}

/**
 * Each --prefix-host the key may change (AAAA), with the router's LAN prefix joined to its identifier, decided. Logged,
 * not answered.
 */
function hostsBehind(
  request: Dyndns2Request,
  key: string,
  client: string,
  deps: DoorDeps,
  scrub: (text: string) => string,
): { host: string; address: string; decided: HostResult | PendingHost }[] {
  if (request.lanPrefixProblem) {
    deps.refusals.refused(
      'ip6lanprefix',
      { key, verified: true, client },
      `dyndns2: ${scrub(request.lanPrefixProblem)}; no host behind the router was changed`,
    );
    return [];
  }
  const prefix = request.lanPrefix;
  if (!prefix || !deps.prefixHosts.size) return [];
  const named = new Set(request.hostnames?.map((h) => h.name));
  return (
    [...deps.prefixHosts]
      // Hosts the key may not change are none of its business, and not a refusal: one keys file serves many routers.
      .filter(([host]) => !named.has(host) && mayChangeAaaa(deps, key, host))
      .map(([host, identifier]) => {
        // Joined at /64 whatever length was sent: the hosts are on the LAN, a /64, the one the
        // prefix's address names (a /56's address with subnet bits keeps them; identifiers hold
        // only the last 64 bits, settings.ts), never bits the identifier's zeros would overwrite.
        const { address } = joinIdentifier(prefix.address, LAN_PREFIX_LENGTH, identifier);
        const reason = deps.allowPrivateIp ? undefined : nonPublicReason(address);
        return {
          host,
          address,
          decided: reason
            ? { code: 'dnserr' as const, why: `${address} is not public (${reason})` }
            : decideHost(host, { AAAA: address }, key, deps),
        };
      })
  );
}

function mayChangeAaaa(deps: DoorDeps, key: string, host: string): boolean {
  const zone = deps.views.zoneOf(host);
  return zone !== undefined && grantsFor(deps.keys(), key, zone, host, 'AAAA').length > 0;
}

/** What must never be logged: the password this request gave (as sent, and escaped) and every key's secret. */
function secretsOf(request: Dyndns2Request, keys: Iterable<{ secret: Buffer }>): string[] {
  const password = request.credentials?.password ?? '';
  const texts = [...keys].map((k) => k.secret.toString('base64'));
  if (password.length >= 4) texts.push(password, encodeURIComponent(password));
  return [...new Set(texts)].sort((a, b) => b.length - a.length);
}
