// Where the public address is learnt. Each source is data; builtins are documented in the
// docs/agent.md "Address sources". Forms: url:<URL>, iface:<name>, file:<path>, dns:<name>@<server>,
// dns-txt:<name>@<server>, server, or a builtin name.
import { ConfigError } from '../lib/errors.js';
import { checkUrl } from '../http/url-policy.js';
import { maskUserInfo, redactUrl, registerSecret } from '../lib/redact.js';
import { nearestNames } from '../lib/nearest-names.js';
import type { Family } from '../lib/address.js';

export type SourceSpec =
  /** `field`: read the `<field>=<address>` line rather than the first address in the body. */
  | { kind: 'url'; name: string; url: string; field?: string }
  | { kind: 'iface'; name: string; iface: string }
  | { kind: 'file'; name: string; path: string }
  | { kind: 'dns'; name: string; query: string; server: string; rrtype: 'address' | 'TXT' }
  | { kind: 'server'; name: 'server' };

type Builtin = (family: Family) => SourceSpec | undefined;

/** Independent operators, HTTPS echo and DNS based, so that one outage or one liar cannot decide. */
export const BUILTIN_SOURCES: Record<string, { describe: string; spec: Builtin }> = {
  ipify: {
    describe: 'ipify.org echo over HTTPS (api.ipify.org / api6.ipify.org)',
    spec: (f) => ({ kind: 'url', name: 'ipify', url: f === 4 ? 'https://api.ipify.org/' : 'https://api6.ipify.org/' }),
  },
  icanhazip: {
    describe: 'icanhazip.com echo over HTTPS (ipv4./ipv6.icanhazip.com)',
    spec: (f) => ({
      kind: 'url',
      name: 'icanhazip',
      url: f === 4 ? 'https://ipv4.icanhazip.com/' : 'https://ipv6.icanhazip.com/',
    }),
  },
  aws: {
    describe: 'Amazon checkip over HTTPS (checkip.amazonaws.com, IPv4 only)',
    spec: (f) => (f === 4 ? { kind: 'url', name: 'aws', url: 'https://checkip.amazonaws.com/' } : undefined),
  },
  cloudflare: {
    describe: "Cloudflare's trace page over HTTPS on 1.1.1.1 / 2606:4700:4700::1111 (no DNS lookup needed)",
    // The trace also names the host (h=1.1.1.1) before the caller's address (ip=…).
    spec: (f) => ({
      kind: 'url',
      name: 'cloudflare',
      url: f === 4 ? 'https://1.1.1.1/cdn-cgi/trace' : 'https://[2606:4700:4700::1111]/cdn-cgi/trace',
      field: 'ip',
    }),
  },
  opendns: {
    describe: 'DNS: myip.opendns.com asked of resolver1.opendns.com (A / AAAA)',
    spec: (f) => ({
      kind: 'dns',
      name: 'opendns',
      query: 'myip.opendns.com',
      server: f === 4 ? '208.67.222.222' : '[2620:119:35::35]',
      rrtype: 'address',
    }),
  },
  'google-dns': {
    describe: "DNS: TXT o-o.myaddr.l.google.com asked of Google's ns1.google.com",
    spec: (f) => ({
      kind: 'dns',
      name: 'google-dns',
      query: 'o-o.myaddr.l.google.com',
      server: f === 4 ? '216.239.32.10' : '[2001:4860:4802:32::a]',
      rrtype: 'TXT',
    }),
  },
};

/**
 * DNS first: two operators answering in one UDP round trip each, so a cycle whose address is
 * unchanged needs no TLS handshake. The HTTPS echoes are asked when those two fail or disagree
 * (detect.ts), and settle the quorum then.
 */
export const DEFAULT_SOURCES: Record<Family, string[]> = {
  4: ['opendns', 'google-dns', 'ipify', 'icanhazip', 'aws', 'cloudflare'],
  6: ['opendns', 'google-dns', 'ipify', 'icanhazip', 'cloudflare'],
};

/** Parses one source form; `setting` names the flag or variable in errors. */
export function parseSource(text: string, family: Family, setting: string): SourceSpec {
  const trimmed = text.trim();
  if (trimmed === 'server') return { kind: 'server', name: 'server' };
  if (trimmed.startsWith('url:')) {
    const url = trimmed.slice(4);
    const parsed = checkUrl(url, setting);
    return { kind: 'url', name: `url:${shownSourceUrl(url, parsed)}`, url };
  }
  if (trimmed.startsWith('iface:')) {
    const iface = trimmed.slice(6);
    if (!/^[\w.@:-]{1,32}$/.test(iface)) throw new ConfigError(`${setting}: "${trimmed}" does not name an interface`);
    return { kind: 'iface', name: trimmed, iface };
  }
  if (trimmed.startsWith('file:')) {
    const path = trimmed.slice(5);
    if (!path) throw new ConfigError(`${setting}: "${trimmed}" names no file (file:<path>)`);
    return { kind: 'file', name: trimmed, path };
  }
  const dns = /^(dns|dns-txt):([a-z0-9.-]+)@(.+)$/i.exec(trimmed);
  if (dns) {
    const server = dns[3]!;
    if (!/^(\d+\.\d+\.\d+\.\d+|\[[0-9a-f:]+\])(:\d+)?$/i.test(server)) {
      throw new ConfigError(
        `${setting}: DNS server "${server}" must be an IP address, optionally with :port (IPv6 in brackets)`,
      );
    }
    return { kind: 'dns', name: trimmed, query: dns[2]!, server, rrtype: dns[1] === 'dns-txt' ? 'TXT' : 'address' };
  }
  const builtin = BUILTIN_SOURCES[trimmed];
  const spec = builtin?.spec(family);
  if (spec) return spec;
  const names = Object.keys(BUILTIN_SOURCES).filter((n) => BUILTIN_SOURCES[n]!.spec(family));
  const near = nearestNames(trimmed, names).slice(0, 3);
  throw new ConfigError(
    `${setting}: unknown IPv${family} source "${maskUserInfo(trimmed)}"; use url:<URL>, iface:<name>, file:<path>, ` +
      `dns:<name>@<server>, dns-txt:<name>@<server>, server, or one of ` +
      `${names.join(', ')}${near.length ? `; did you mean ${near.join(' or ')}?` : ''}`,
  );
}

/**
 * How an url: source is named (in `ip --json`, logs, errors): as given, unless its URL carries
 * credentials (user-info, a key in the query), which are then masked. They are also registered
 * as secrets, so an error text that quotes the URL in its own way is masked as well.
 */
function shownSourceUrl(text: string, url: URL): string {
  const shown = redactUrl(text);
  const secret = url.password || url.username;
  if (!secret && shown === url.href) return text;
  registerSecret(secret);
  try {
    registerSecret(decodeURIComponent(secret));
  } catch {
    // not valid percent-encoding: the raw form is registered
  }
  return shown;
}

export function parseSources(texts: string[] | undefined, family: Family, setting: string): SourceSpec[] {
  const specs = (texts?.length ? texts : DEFAULT_SOURCES[family]).map((t) => parseSource(t, family, setting));
  if (specs.some((s) => s.kind === 'server') && specs.length > 1) {
    throw new ConfigError(
      `${setting}: "server" lets the provider see the address and cannot be combined with other sources`,
    );
  }
  return specs;
}
