// With the HTTP door closed (no --http-listen), the start log names the keys whose grants are
// shaped for the door's protocols: a router's key (only A/AAAA: routers speak dyndns2) is a
// warning; an ACME key (only TXT) is a plain line, since ACME clients speak RFC 2136 as well.
// Keys with other types (a DHCP server's, external-dns's, an admin's) are DNS clients' keys.
import { describe, expect, it } from 'vitest';
import { closedHttpDoorNotice } from '../../../../src/gateway/keys/http-door-keys.js';
import { parseKeysFile } from '../../../../src/gateway/keys/keys-file.js';

const SECRET = 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LTEyMzQ=';
const keys = (grants: Record<string, string[]>) =>
  parseKeysFile(
    Object.entries(grants)
      .map(
        ([key, lines]) =>
          `key "${key}" { algorithm hmac-sha256; secret "${SECRET}"; };\n${lines.map((l) => `grant "${key}" ${l};\n`).join('')}`,
      )
      .join(''),
    'keys.conf',
  );

describe('the notice of a closed HTTP door', () => {
  it("warns of a router's key and names the ACME keys in the same line, with the flag that opens the door", () => {
    const notice = closedHttpDoorNotice(
      keys({
        router: ['name home.example.com A AAAA', 'subdomain lan.example.com AAAA'],
        acme: ['wildcard *.example.com TXT'],
        admin: ['zonesub'],
        dhcp: ['subdomain dhcp.example.com A AAAA DHCID'],
        mixed: ['name a.example.com A', 'name b.example.com CNAME'],
      }),
    );
    expect(notice).toEqual({
      level: 'warn',
      text:
        'gateway: the HTTP door is closed (no --http-listen): dyndns2 clients (routers, NAS boxes) with key "router", ' +
        'and httpreq and acme-dns clients with key "acme", get "connection refused"; --http-listen ADDR:PORT ' +
        '(DDEDGE_GATEWAY_HTTP_DOOR_LISTEN; DDEDGE_GATEWAY_HTTP_LISTEN is --listen, the status page) opens it ' +
        '(RFC 2136 updates on the DNS door work as they are)',
    });
    expect(notice!.text).not.toContain(SECRET);
  });

  it('says so in a plain line when only ACME keys could use the door', () => {
    expect(closedHttpDoorNotice(keys({ acme: ['name _acme-challenge.example.com TXT'], admin: ['zonesub'] }))).toEqual({
      level: 'info',
      text:
        'gateway: the HTTP door is closed (no --http-listen): httpreq and acme-dns clients with key "acme" get ' +
        '"connection refused"; --http-listen ADDR:PORT (DDEDGE_GATEWAY_HTTP_DOOR_LISTEN; DDEDGE_GATEWAY_HTTP_LISTEN is ' +
        '--listen, the status page) opens it (RFC 2136 updates on the DNS door work as they are)',
    });
  });

  it('says nothing when no key is shaped for the door', () => {
    expect(closedHttpDoorNotice(keys({ admin: ['zonesub'], dhcp: ['zonesub A AAAA DHCID'] }))).toBeUndefined();
    expect(closedHttpDoorNotice(keys({ lonely: [] }))).toBeUndefined();
  });

  it('never names a key whose name may be a secret pasted as one', () => {
    const text = closedHttpDoorNotice(keys({ c2VjcmV0c2VjcmV0c2VjcmV0: ['name h.example.com A'] }))!.text;
    expect(text).toContain('with key "…" (a name not shown: it may be a secret) get');
    expect(text).not.toContain('c2VjcmV0c2VjcmV0');
  });

  it('names at most 10 keys of a kind, then how many more', () => {
    const many = Object.fromEntries(Array.from({ length: 13 }, (_, i) => [`r${i}`, ['name h.example.com A']]));
    expect(closedHttpDoorNotice(keys(many))!.text).toContain(
      'with keys "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9" and 3 more get "connection refused"',
    );
  });
});
