// The gateway's keys file: BIND's named.conf syntax for keys, and its update-policy words for
// what each key may change, so that `tsig-keygen NAME` output pastes in as it is:
//   key "NAME" { algorithm ALG; secret "BASE64"; };
//   grant "KEY" zonesub|subdomain NAME|name NAME|wildcard *.NAME [TYPE ...];
//   transfer "KEY";
//   quota "KEY" [dhcid N] [records N] [calls N];   (what the key may hold in each zone: key-quotas.ts; its provider
// calls an hour: key-calls.ts) Comments as in named.conf (#, //, /* */). Every error names the file, line and column
// and what was expected there; no message shows what may be a secret (keys-file-reader.ts). A file others
// may read is refused: it holds every key's secret.
import type { Stats } from 'node:fs';
import { ConfigError } from '../../lib/errors.js';
import { FileProblems } from '../../zone/zone-file-error.js';
import {
  KeysFileMistake,
  shown,
  shownName,
  StatementReader,
  tokenize,
  type Place,
  type Token,
} from './keys-file-reader.js';
import { readRegularBytes, RegularFileRefusal } from '../../lib/regular-file.js';
import { NotUtf8, strictUtf8 } from '../../config/capped-file.js';
import { nameKey } from '../../dns/wire/names.js';
import { canonicalName } from '../../lib/names.js';
import { TSIG_ALGORITHMS, type TsigAlgorithm, type TsigKey } from '../../dns/wire/tsig.js';

/**
 * The types a grant may name: those the provider holds, and DHCID, which the gateway keeps for DHCP servers
 * (dhcid/store.ts).
 */
const GRANT_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'SRV', 'TXT', 'NS', 'CAA', 'DHCID'] as const;
type GrantType = (typeof GRANT_TYPES)[number];
/**
 * What a `quota` statement bounds: DHCID records the gateway keeps, records made at the provider, provider calls an
 * hour (key-calls.ts).
 */
const QUOTA_KINDS = ['dhcid', 'records', 'calls'] as const;
export type QuotaKind = (typeof QUOTA_KINDS)[number];

export interface Grant {
  key: string;
  rule: 'zonesub' | 'subdomain' | 'name' | 'wildcard';
  /** The name the rule is about (a name key; for `wildcard`, the name below which it matches). */
  name?: string;
  /** Empty: every type. */
  types: GrantType[];
  line: number;
}

export interface GatewayKeys {
  keys: Map<string, TsigKey>;
  grants: Grant[];
  /** Keys allowed to transfer whole zones. */
  transfer: Set<string>;
  /** Quotas set for a key (key-quotas.ts gives the defaults for the rest). */
  quotas: Map<string, Partial<Record<QuotaKind, number>>>;
  /** Things that work but deserve a word (weak algorithms). */
  warnings: string[];
}

/** Algorithms accepted with a warning: broken hashes, kept for old clients (certbot's default is hmac-md5). */
const WEAK: TsigAlgorithm[] = ['hmac-md5', 'hmac-sha1'];
/** The smallest secret accepted: shorter ones are guessable. */
const MIN_SECRET_BYTES = 16;

/** Far above any keys file (a key and its grants take about 150 bytes). */
const KEYS_FILE_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Reads and checks the file at `path`. It is opened once, without waiting for a writer, and
 * every check (a regular file, its owner, its mode) is made on that descriptor: what is checked
 * is the very file read, whatever a path swapped between a check and a read by name would have
 * given, and a FIFO swapped in would hold the gateway, deaf to SIGTERM. Links are followed (a
 * Kubernetes secret volume mounts each file as a chain of them): the file they end at is the one
 * opened, and so the one judged. `open` is node:fs openSync (tests put a step after it).
 */
export function loadKeysFile(
  path: string,
  uid = process.geteuid?.(),
  open?: (path: string, flags: number) => number,
): GatewayKeys {
  let bytes: Buffer | undefined;
  try {
    bytes = readRegularBytes(path, KEYS_FILE_MAX_BYTES, {
      open,
      vet: (stats) => vetKeysFile(path, stats, uid),
    });
  } catch (error) {
    if (!(error instanceof RegularFileRefusal)) throw error;
    // A FIFO would hold the read until a writer came; a device such as /dev/zero would be read until memory ran out.
    if (error.reason.endsWith('not a regular file'))
      throw new ConfigError(`--keys: "${path}" is ${error.reason}; give the keys file itself`);
    throw new ConfigError(`--keys: cannot read "${path}": ${error.reason}`);
  }
  if (bytes === undefined) throw new ConfigError(`--keys: cannot read "${path}": ENOENT`);
  return parseKeysFile(keysFileText(bytes, path), path);
}

/** The file's text; a byte that is not UTF-8 is an error, never U+FFFD (a key loaded under a name no client sends). */
function keysFileText(bytes: Buffer, path: string): string {
  try {
    return strictUtf8(bytes);
  } catch (error) {
    if (!(error instanceof NotUtf8)) throw error;
    throw new ConfigError(
      `${path}:${error.line}:${error.column}: a byte that is not UTF-8 (save the keys file as UTF-8)`,
    );
  }
}

/** The keys file as opened: not too large, owned and writable as the rules below say. */
function vetKeysFile(path: string, stats: Stats, uid: number | undefined): void {
  if (stats.size > KEYS_FILE_MAX_BYTES)
    throw new ConfigError(`--keys: "${path}" is larger than ${KEYS_FILE_MAX_BYTES / 1024 / 1024} MiB: not a keys file`);
  // Whoever may write it decides which keys change the zones: read by root, a user's own file would let that user grant
  // himself any name. A gateway run as a user (a container's) may read a file a host user mounted for it. Without
  // users (Windows), no one else.
  if (uid === 0 && stats.uid !== 0) {
    throw new ConfigError(
      `--keys: "${path}" is owned by uid ${stats.uid}, and the gateway runs as root: whoever owns the file decides ` +
        `which keys may change the zones; chown root it (or run the gateway as its owner)`,
    );
  }
  const mode = stats.mode;
  // Group read is allowed (root:ddedge 0640 is how packages ship secrets); anyone else reading or anyone but the owner
  // writing is not.
  if (mode & 0o007 || mode & 0o020) {
    throw new ConfigError(
      `--keys: "${path}" can be ${mode & 0o004 ? 'read' : 'changed'} by other users (mode ` +
        `${(mode & 0o777).toString(8).padStart(4, '0')}); it holds TSIG secrets: chmod 600 (or 640 for the ` +
        `service's group)`,
    );
  }
}

/**
 * Every mistake of the file is reported at once (FileProblems: one `file:line:column: reason` line
 * each, the first 20, then how many more), and nothing is loaded when there is one. After a
 * mistake, reading goes on at the next statement (StatementReader.skipStatement).
 */
export function parseKeysFile(text: string, file: string): GatewayKeys {
  const problems = new FileProblems(file);
  const reader = new StatementReader(tokenize(text, problems), file);
  const result: GatewayKeys = { keys: new Map(), grants: [], transfer: new Set(), quotas: new Map(), warnings: [] };
  // Keys named by grant, transfer and quota statements: each must be defined somewhere in the file.
  const refs: { key: string; place: Place }[] = [];
  // Each round reads at least one token (skipStatement never goes back past the statement's first).
  while (!reader.done && !problems.full) {
    const start = reader.position;
    const named = refs.length;
    try {
      readStatement(reader, result, refs);
    } catch (error) {
      if (!(error instanceof KeysFileMistake)) throw error;
      if (error.reason !== undefined) problems.add(error.line, error.column, error.reason);
      reader.skipStatement(start);
      // A statement with a mistake is dropped whole: the keys it names are looked for once it is mended.
      refs.length = named;
    }
  }
  // A key whose definition has a mistake is still defined: its grants are no mistakes of their own.
  for (const ref of refs)
    if (!reader.keyPlaces.has(ref.key))
      problems.add(ref.place.line, ref.place.column, `no key ${shownName(ref.key)} is defined in this file`);
  problems.throwIfAny();
  return result;
}

function readStatement(reader: StatementReader, result: GatewayKeys, refs: { key: string; place: Place }[]): void {
  const statement = reader.next('a statement');
  // A stray quoted string may be a secret out of place: never shown (shown() says so).
  if (statement.quoted) reader.fail(statement, 'expected key, grant, transfer or quota, found a quoted string');
  if (statement.text === 'key') readKey(reader, result);
  else if (statement.text === 'grant') result.grants.push(readGrant(reader, statement, refs));
  else if (statement.text === 'transfer') {
    const key = namedKey(reader, refs);
    reader.expect(';', `after transfer ${shownName(key)}`);
    result.transfer.add(key);
  } else if (statement.text === 'quota') readQuota(reader, statement, refs, result);
  else reader.fail(statement, `expected key, grant, transfer or quota, found ${shown(statement)}`);
}

/** `key "NAME" { algorithm ALG; secret "BASE64"; };` */
function readKey(reader: StatementReader, result: GatewayKeys): void {
  const { file } = reader;
  const name = reader.next('the key name');
  const key = keyName(name, reader.fail);
  const named = `key ${shownName(key)}`;
  // A key appended again (a recipe run twice, a copy pasted twice) names the line to look at.
  const first = reader.keyPlaces.get(key);
  if (first)
    reader.fail(name, `${named} is defined twice (first at line ${first.line}): remove one, or give one another name`);
  reader.keyPlaces.set(key, name);
  reader.expect('{', `after ${named}`);
  let algorithm: TsigAlgorithm | undefined;
  let secret: Buffer | undefined;
  for (;;) {
    const field = reader.next(`"algorithm", "secret" or "}" in ${named}`);
    if (field.text === '}' && !field.quoted) break;
    if ((field.text === 'algorithm' && algorithm) || (field.text === 'secret' && secret))
      reader.fail(field, `${named}: a second ${field.text} (one key has one)`);
    if (field.text === 'algorithm') {
      const value = reader.next('the algorithm');
      const alg = value.text.toLowerCase() as TsigAlgorithm;
      if (value.quoted || !(alg in TSIG_ALGORITHMS))
        reader.fail(
          value,
          `${named}: expected an algorithm (${Object.keys(TSIG_ALGORITHMS).join(', ')}), found ${shown(value)}`,
        );
      algorithm = alg;
      if (WEAK.includes(alg))
        result.warnings.push(
          `${file}:${value.line}:${value.column}: ${named} uses ${alg}, a weak hash; prefer hmac-sha256 when the ` +
            `client allows it`,
        );
    } else if (field.text === 'secret') {
      const value = reader.next('the secret');
      // The secret is never quoted back: only what is wrong with it.
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value.text) || value.text.length % 4 !== 0)
        reader.fail(value, `${named}: the secret is not base64`);
      secret = Buffer.from(value.text, 'base64');
      if (secret.length < MIN_SECRET_BYTES)
        reader.fail(
          value,
          `${named}: the secret is ${secret.length} bytes; use at least ${MIN_SECRET_BYTES} (tsig-keygen or ddedge ` +
            `gateway keygen make one)`,
        );
    } else reader.fail(field, `${named}: expected algorithm, secret or "}", found ${shown(field)}`);
    reader.expect(';', `after the ${field.text} of ${named}`);
  }
  reader.expect(';', `after the "}" of ${named}`);
  if (!algorithm) reader.fail(name, `${named} has no algorithm`);
  if (!secret) reader.fail(name, `${named} has no secret`);
  result.keys.set(key, { name: key, algorithm: algorithm!, secret: secret! });
}

/** `grant "KEY" zonesub|subdomain NAME|name NAME|wildcard *.NAME [TYPE ...];` */
function readGrant(reader: StatementReader, statement: Token, refs: { key: string; place: Place }[]): Grant {
  const key = namedKey(reader, refs);
  const granted = `grant ${shownName(key)}`;
  const ruleToken = reader.next('the rule (zonesub, subdomain, name or wildcard)');
  const rule = ruleToken.text as Grant['rule'];
  if (ruleToken.quoted || !['zonesub', 'subdomain', 'name', 'wildcard'].includes(rule))
    reader.fail(
      ruleToken,
      `${granted}: expected zonesub, subdomain NAME, name NAME or wildcard *.NAME, found ${shown(ruleToken)}`,
    );
  const grant: Grant = { key, rule, types: [], line: statement.line };
  if (rule !== 'zonesub') {
    const target = reader.next(`the name of the ${rule} rule`);
    let text = target.text.replace(/\.$/, '');
    if (rule === 'wildcard') {
      if (!text.startsWith('*.')) reader.fail(target, `${granted}: a wildcard rule names *.NAME, not ${shown(target)}`);
      text = text.slice(2);
    }
    try {
      // A name written in Unicode is held by the zone in punycode: read as its bytes it would never match an owner.
      // Every name is checked as the other doors check it (a `%` or a space is no name, ASCII or not).
      const ascii = canonicalName(text);
      if (ascii === undefined) throw new Error('not a name');
      grant.name = nameKey(ascii);
    } catch {
      reader.fail(target, `${granted}: expected a DNS name, found ${shown(target)}`);
    }
  }
  for (let t = reader.next('a type or ";"'); t.text !== ';' || t.quoted; t = reader.next('a type or ";"')) {
    const type = t.text.toUpperCase();
    if (type === 'ANY') continue; // BIND's word for every type: the same as naming none
    if (!(GRANT_TYPES as readonly string[]).includes(type))
      reader.fail(
        t,
        `${granted}: expected a type the provider holds (${GRANT_TYPES.join(', ')}) or ";", found ${shown(t)}`,
      );
    grant.types.push(type as GrantType);
  }
  return grant;
}

/** `quota "KEY" [dhcid N] [records N] [calls N];` */
function readQuota(
  reader: StatementReader,
  statement: Token,
  refs: { key: string; place: Place }[],
  result: GatewayKeys,
): void {
  const key = namedKey(reader, refs);
  const quoted = `quota ${shownName(key)}`;
  const quota = result.quotas.get(key) ?? {};
  let any = false;
  for (
    let t = reader.next('dhcid, records, calls or ";"');
    t.text !== ';' || t.quoted;
    t = reader.next('dhcid, records, calls or ";"')
  ) {
    const kind = t.text as QuotaKind;
    if (t.quoted || !(QUOTA_KINDS as readonly string[]).includes(kind))
      reader.fail(t, `${quoted}: expected ${QUOTA_KINDS.join(' N, ')} N or ";", found ${shown(t)}`);
    const what = kind === 'calls' ? 'provider calls an hour' : `${kind} records`;
    const value = reader.next(`the number of ${what}`);
    if (value.quoted || !/^\d{1,7}$/.test(value.text))
      reader.fail(
        value,
        `${quoted}: ${kind} takes a whole number of ${kind === 'calls' ? 'provider calls an hour' : 'records'} (0 ` +
          `to 9999999), found ${shown(value)}`,
      );
    quota[kind] = Number(value.text);
    any = true;
  }
  if (!any) reader.fail(statement, `${quoted}: name dhcid N, records N, calls N or several`);
  result.quotas.set(key, quota);
}

/** A key's name as the file, keygen and dyndns2 user names read it: its name key; undefined when it is no DNS name. */
export function keyNameOf(text: string): string | undefined {
  try {
    return nameKey(text.replace(/\.$/, ''));
  } catch {
    return undefined;
  }
}

/** The key a statement names, kept in `refs` when it must be defined in the file. */
function namedKey(reader: StatementReader, refs?: { key: string; place: Place }[]): string {
  const name = reader.next('the key name');
  const key = keyName(name, reader.fail);
  refs?.push({ key, place: name });
  return key;
}

function keyName(token: Token, fail: (place: Place, message: string) => never): string {
  const name = !token.text || token.text === '{' || token.text === ';' ? undefined : keyNameOf(token.text);
  return name ?? fail(token, `expected a key name (a DNS name, as tsig-keygen takes), found ${shown(token)}`);
}
