// Which server a source asks. A quorum counts independent witnesses: the same server named
// twice (the same url: again, `localhost` for `127.0.0.1`, a `?x` added, another path on the
// same host) is one witness, and a configuration that counts it twice is refused (exit 2).
import { ConfigError } from '../errors.js';
import { canonicalAddress, isLoopbackHost } from './address.js';
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
      return `${spec.kind}:${spec.name}`;
  }
}

function hostIdentity(hostname: string, port: string): string {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isLoopbackHost(host)) return `this machine, port ${port}`;
  return canonicalAddress(host);
}

/** Throws when two sources ask the same server. */
export function refuseDuplicateServers(specs: SourceSpec[], setting: string): void {
  const seen = new Map<string, string>();
  for (const spec of specs) {
    const server = serverOf(spec);
    const first = seen.get(server);
    if (first !== undefined) {
      throw new ConfigError(
        `${setting}: "${first}" and "${spec.name}" ask the same server (${server}); a quorum needs different servers, so name each server once`,
      );
    }
    seen.set(server, spec.name);
  }
}
