// iface: for IPv6: the address a router would publish, from the kernel's flags in
// /proc/net/if_inet6 (a fixture here), with the reason; a fallback without the flags.
import { networkInterfaces } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { interfaceAddress6, parseIfInet6 } from '../../../src/ip/interface-address6.js';
import { createLogger } from '../../../src/lib/log.js';

const TABLE = fileURLToPath(new URL('../../fixtures/if_inet6', import.meta.url));

function capture() {
  const lines: string[] = [];
  return { lines, logger: createLogger({ level: 'debug', format: 'text', write: (t) => lines.push(t) }) };
}

describe('/proc/net/if_inet6', () => {
  it('is read with its prefix length, scope and flags', () => {
    const wan = parseIfInet6('2a00145040030012021122fffe334455 02 40 00 100     wan0\nbogus line\n');
    expect(wan).toEqual([
      { iface: 'wan0', address: '2a00:1450:4003:12:211:22ff:fe33:4455', prefixLength: 64, scope: 0, flags: 0x100 },
    ]);
  });

  it('gives the global, preferred, stable address, passing over link-local, deprecated, temporary, tentative and ULA ones, and says why', () => {
    const { lines, logger } = capture();
    expect(interfaceAddress6('wan0', { table: TABLE, logger })).toBe('2a00:1450:4003:12:211:22ff:fe33:4455');
    const log = lines.join('');
    expect(log).toMatch(
      /info: iface:wan0 IPv6 address 2a00:1450:4003:12:211:22ff:fe33:4455: global, preferred, stable; passed over/,
    );
    expect(log).toContain('fe80::211:22ff:fe33:4455 (link-local)');
    expect(log).toContain('2a00:1450:4003:11:211:22ff:fe33:4455 (deprecated (its preferred lifetime is over))');
    expect(log).toContain('2a00:1450:4003:12::777 (tentative (duplicate address detection not finished))');
    expect(log).toContain('2a00:1450:4003:12:69a3:c1d2:5e8b:f17 (temporary)');
    expect(log).toContain('fd00::beef (not public)');
  });

  it('logs the reason at info when the choice changes, at debug when it repeats', () => {
    const { lines, logger } = capture();
    interfaceAddress6('lan0', { table: TABLE, logger });
    interfaceAddress6('lan0', { table: TABLE, logger });
    expect(lines.map((l) => l.split(':')[0])).toEqual(['info', 'debug']);
  });

  it('takes a temporary address only when no stable one is usable, and says so', () => {
    const { lines, logger } = capture();
    expect(interfaceAddress6('priv0', { table: TABLE, logger })).toBe('2a00:1450:4003:1a:1d2c:3b4a:5968:7706');
    expect(lines.join('')).toMatch(
      /temporary: no stable address is usable; passed over 2a00:1450:4003:1b::1 \(deprecated/,
    );
  });

  it('refuses an interface with only link-local addresses, and an unknown interface', () => {
    expect(() => interfaceAddress6('ll0', { table: TABLE })).toThrow(
      /interface "ll0" has no usable IPv6 address: fe80::211:22ff:fe33:44aa \(link-local\)/,
    );
    expect(() => interfaceAddress6('nope0', { table: TABLE })).toThrow(
      /no network interface named "nope0" with an IPv6 address \(have: lo, wan0, lan0, priv0, ll0\)/,
    );
  });

  it('falls back to os.networkInterfaces() without the table: an unknown interface', () => {
    const missing = '/nonexistent/if_inet6';
    expect(() => interfaceAddress6('nope0', { table: missing })).toThrow(/no network interface named "nope0"/);
  });

  it('falls back to os.networkInterfaces() without the table, and says that flags are unknown', ({ skip }) => {
    const missing = '/nonexistent/if_inet6';
    if (!networkInterfaces().lo?.some((e) => e.family === 'IPv6')) skip("no IPv6 on this machine's loopback");
    const { lines, logger } = capture();
    expect(interfaceAddress6('lo', { table: missing, logger })).toBe('::1');
    expect(lines.join('')).toMatch(/does not say which addresses are temporary or deprecated/);
  });
});
