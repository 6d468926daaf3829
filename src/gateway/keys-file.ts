// The gateway's keys file: BIND's named.conf syntax for keys, and its update-policy words for
// what each key may change, so that `tsig-keygen NAME` output pastes in as it is:
//   key "NAME" { algorithm ALG; secret "BASE64"; };
//   grant "KEY" zonesub|subdomain NAME|name NAME|wildcard *.NAME [TYPE ...];
//   transfer "KEY";
// Comments as in named.conf (#, //, /* */). Every error names the file and line; no message
// quotes a secret. A file others may read is refused: it holds every key's secret.
import { statSync } from 'node:fs';
import { ConfigError } from '../runtime/errors.js';
import { nameKey } from '../dns/names.js';
import { TSIG_ALGORITHMS, type TsigAlgorithm, type TsigKey } from '../dns/tsig.js';

/** The types a grant may name: those the provider holds, and DHCID, which the gateway keeps for DHCP servers (dhcid-store.ts). */
export const GRANT_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'SRV', 'TXT', 'NS', 'CAA', 'DHCID'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

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
  /** Things that work but deserve a word (weak algorithms). */
  warnings: string[];
}

/** Algorithms accepted with a warning: broken hashes, kept for old clients (certbot's default is hmac-md5). */
const WEAK: TsigAlgorithm[] = ['hmac-md5', 'hmac-sha1'];
/** The smallest secret accepted: shorter ones are guessable. */
const MIN_SECRET_BYTES = 16;

interface Token {
  text: string;
  quoted: boolean;
  line: number;
}

/** Reads and checks the file at `path`; `shown` is how errors name it. */
export function loadKeysFile(path: string, read: (path: string) => string): GatewayKeys {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch (error) {
    throw new ConfigError(`--keys: cannot read "${path}": ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  // Group read is allowed (root:ddedge 0640 is how packages ship secrets); anyone else reading or anyone but the owner writing is not.
  if (mode & 0o007 || mode & 0o020) {
    throw new ConfigError(`--keys: "${path}" can be ${mode & 0o004 ? 'read' : 'changed'} by other users (mode ${(mode & 0o777).toString(8).padStart(4, '0')}); it holds TSIG secrets: chmod 600 (or 640 for the service's group)`);
  }
  return parseKeysFile(read(path), path);
}

export function parseKeysFile(text: string, file: string): GatewayKeys {
  const tokens = tokenize(text, file);
  const result: GatewayKeys = { keys: new Map(), grants: [], transfer: new Set(), warnings: [] };
  const pendingRefs: { key: string; line: number }[] = [];
  let at = 0;
  const fail = (line: number, message: string): never => {
    throw new ConfigError(`${file}:${line}: ${message}`);
  };
  const next = (what: string): Token => tokens[at++] ?? fail(tokens[tokens.length - 1]?.line ?? 1, `the file ends where ${what} should be`);
  const expect = (text: string, after: string) => {
    const t = next(`"${text}"`);
    if (t.quoted || t.text !== text) fail(t.line, `expected "${text}" ${after}, found ${t.quoted ? 'a quoted string' : `"${shown(t)}"`}`);
  };
  while (at < tokens.length) {
    const statement = next('a statement');
    // A stray quoted string may be a secret out of place: never shown.
    if (statement.quoted) fail(statement.line, 'expected key, grant or transfer, found a quoted string');
    if (statement.text === 'key') {
      const name = next('the key name');
      const key = keyName(name, fail);
      if (result.keys.has(key)) fail(name.line, `key "${key}" is defined twice`);
      expect('{', `after key "${key}"`);
      let algorithm: TsigAlgorithm | undefined;
      let secret: Buffer | undefined;
      for (;;) {
        const field = next(`"algorithm", "secret" or "}" in key "${key}"`);
        if (field.text === '}' && !field.quoted) break;
        if (field.text === 'algorithm') {
          const value = next('the algorithm');
          const alg = value.text.toLowerCase() as TsigAlgorithm;
          if (!(alg in TSIG_ALGORITHMS)) fail(value.line, `key "${key}": unknown algorithm "${shown(value)}"; use one of ${Object.keys(TSIG_ALGORITHMS).join(', ')}`);
          algorithm = alg;
          if (WEAK.includes(alg)) result.warnings.push(`${file}:${value.line}: key "${key}" uses ${alg}, a weak hash; prefer hmac-sha256 when the client allows it`);
        } else if (field.text === 'secret') {
          const value = next('the secret');
          // The secret is never quoted back: only what is wrong with it.
          if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value.text) || value.text.length % 4 !== 0) fail(value.line, `key "${key}": the secret is not base64`);
          secret = Buffer.from(value.text, 'base64');
          if (secret.length < MIN_SECRET_BYTES) fail(value.line, `key "${key}": the secret is ${secret.length} bytes; use at least ${MIN_SECRET_BYTES} (tsig-keygen or ddedge gateway keygen make one)`);
        } else fail(field.line, `key "${key}": expected algorithm, secret or "}", found "${field.quoted ? '(a quoted string)' : shown(field)}"`);
        expect(';', `after the ${field.text} of key "${key}"`);
      }
      expect(';', `after the "}" of key "${key}"`);
      if (!algorithm) fail(name.line, `key "${key}" has no algorithm`);
      if (!secret) fail(name.line, `key "${key}" has no secret`);
      result.keys.set(key, { name: key, algorithm: algorithm!, secret: secret! });
    } else if (statement.text === 'grant') {
      const name = next('the key name');
      const key = keyName(name, fail);
      pendingRefs.push({ key, line: name.line });
      const ruleToken = next('the rule (zonesub, subdomain, name or wildcard)');
      const rule = ruleToken.text as Grant['rule'];
      if (ruleToken.quoted || !['zonesub', 'subdomain', 'name', 'wildcard'].includes(rule)) fail(ruleToken.line, `grant "${key}": expected zonesub, subdomain NAME, name NAME or wildcard *.NAME, found "${shown(ruleToken)}"`);
      const grant: Grant = { key, rule, types: [], line: statement.line };
      if (rule !== 'zonesub') {
        const target = next(`the name of the ${rule} rule`);
        let text = target.text.replace(/\.$/, '');
        if (rule === 'wildcard') {
          if (!text.startsWith('*.')) fail(target.line, `grant "${key}": a wildcard rule names *.NAME, not "${shown(target)}"`);
          text = text.slice(2);
        }
        try {
          grant.name = nameKey(text);
        } catch {
          fail(target.line, `grant "${key}": "${shown(target)}" is not a DNS name`);
        }
      }
      for (let t = next('a type or ";"'); t.text !== ';' || t.quoted; t = next('a type or ";"')) {
        const type = t.text.toUpperCase();
        if (type === 'ANY') continue; // BIND's word for every type: the same as naming none
        if (!(GRANT_TYPES as readonly string[]).includes(type)) fail(t.line, `grant "${key}": "${shown(t)}" is not a type the provider holds (${GRANT_TYPES.join(', ')})`);
        grant.types.push(type as GrantType);
      }
      result.grants.push(grant);
    } else if (statement.text === 'transfer') {
      const name = next('the key name');
      const key = keyName(name, fail);
      pendingRefs.push({ key, line: name.line });
      expect(';', `after transfer "${key}"`);
      result.transfer.add(key);
    } else fail(statement.line, `expected key, grant or transfer, found "${shown(statement)}"`);
  }
  for (const ref of pendingRefs) if (!result.keys.has(ref.key)) fail(ref.line, `no key "${ref.key}" is defined in this file`);
  return result;
}

function keyName(token: Token, fail: (line: number, message: string) => never): string {
  try {
    if (!token.text || token.text === '{' || token.text === ';') throw new Error();
    return nameKey(token.text.replace(/\.$/, ''));
  } catch {
    return fail(token.line, `"${shown(token)}" is not a key name (a DNS name, as tsig-keygen takes)`);
  }
}

/** A token as an error shows it: cut short, control characters escaped. */
function shown(token: Token): string {
  const text = token.text.length > 40 ? `${token.text.slice(0, 40)}…` : token.text;
  return text.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function tokenize(text: string, file: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  for (let i = 0; i < text.length; ) {
    const ch = text[i]!;
    if (ch === '\n') {
      line++;
      i++;
    } else if (/\s/.test(ch)) i++;
    else if (ch === '#' || (ch === '/' && text[i + 1] === '/')) {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) throw new ConfigError(`${file}:${line}: a /* comment is never closed`);
      for (const c of text.slice(i, end)) if (c === '\n') line++;
      i = end + 2;
    } else if (ch === '"') {
      const end = text.indexOf('"', i + 1);
      const newline = text.indexOf('\n', i + 1);
      if (end < 0 || (newline >= 0 && newline < end)) throw new ConfigError(`${file}:${line}: a quoted string is not closed on its line`);
      tokens.push({ text: text.slice(i + 1, end), quoted: true, line });
      i = end + 1;
    } else if (ch === '{' || ch === '}' || ch === ';') {
      tokens.push({ text: ch, quoted: false, line });
      i++;
    } else {
      let end = i;
      while (end < text.length && !/[\s{};"#]/.test(text[end]!)) end++;
      tokens.push({ text: text.slice(i, end), quoted: false, line });
      i = end;
    }
  }
  return tokens;
}
