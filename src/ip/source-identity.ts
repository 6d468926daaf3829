// Which server a source asks. A quorum counts independent witnesses: the same server named
// twice (the same url: again, `localhost` for `127.0.0.1`, a `?x` added, another path on the
// same host) is one witness. Its answers count once, and a configuration whose quorum could
// only be met by counting one server twice is refused (exit 2).
import { ConfigError } from '../lib/errors.js';
import { canonicalAddress, isLoopbackHost } from '../lib/address.js';
import type { SourceSpec } from './sources.js';

/**
 * The server behind a source. Public hosts are one server whatever the port or path (one
 * operator answers them all); on loopback each port is a separate local process.
 */
export function serverOf(spec: SourceSpec): string {
  switch (spec.kind) {
    case 'url': {
      const url = new URL(spec.url);
      return hostIdentity(url.hostname, url.port || (url.protocol === 'https:' ? '443' : '80'));
    }
    case 'dns': {
      // 192.0.2.1, 192.0.2.1:5353, [2001:db8::1], [2001:db8::1]:5353
      const match = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d+))?$/.exec(spec.server);
      return hostIdentity(match?.[1] ?? match?.[2] ?? spec.server, match?.[3] ?? '53');
    }
    default:
      // iface:, file: and server name themselves.
      return spec.name;
  }
}

function hostIdentity(hostname: string, port: string): string {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isLoopbackHost(host)) return `this machine, port ${port}`;
  return canonicalAddress(host);
}

/**
 * Throws when the quorum could be met by one server counted twice: it needs more different
 * servers than the sources name. (With enough different servers, a repeated one only counts
 * once, in detect.ts.)
 */
export function checkQuorumServers(specs: SourceSpec[], quorum: number, setting: string): void {
  const seen = new Map<string, string>();
  let duplicate: string | undefined;
  for (const spec of specs) {
    const server = serverOf(spec);
    const first = seen.get(server);
    if (first !== undefined) duplicate ??= `"${first}" and "${spec.name}" ask the same server (${server})`;
    else seen.set(server, spec.name);
  }
  if (duplicate && quorum > seen.size) {
    throw new ConfigError(
      `${setting}: ${duplicate}; a quorum needs different servers: a quorum of ${quorum} needs ${quorum} of them, ` +
        `and these sources name ${seen.size}`,
    );
  }
}
