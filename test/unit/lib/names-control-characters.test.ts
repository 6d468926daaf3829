// domainToASCII (WHATWG URL rules) drops tabs and line breaks inside a name, so
// "exa\tmple.com" would silently become example.com: another host's records.
import { describe, expect, it } from 'vitest';
import { challengeRecordName } from '../../../src/acme/challenge-name.js';
import { loadConfig } from '../../../src/config/load.js';
import { canonicalName, isHostName, normaliseHost } from '../../../src/lib/names.js';
import { dnsEntryName } from '../../../src/sandbox/ops/dns-rules.js';

describe('a name with a tab or line break inside is refused, never read as another name', () => {
  it.each(['_acme-challenge.exa\tmple.com', '_acme-challenge.exa\nmple.com', '_acme-challenge.exämple\t.com'])(
    'acme: %j',
    (name) => {
      expect(() => challengeRecordName(name)).toThrow(/is not a DNS name for a challenge record/);
    },
  );
  it('acme: the message shows the name escaped, on one line', () => {
    expect(() => challengeRecordName('_acme-challenge.exa\nmple.com')).toThrow(/"_acme-challenge\.exa\\nmple\.com"/);
  });
  it.each(['exa\tmple.com', 'exä\tmple.com', 'www.bücher\n.example'])('zone: %j', (name) => {
    expect(canonicalName(name)).toBeUndefined();
  });
  it.each(['exä\tmple', 'www.bücher\n', 'Ex\tample'])(
    'sandbox: the entry name %j is refused as the provider refuses one (105)',
    (name) => {
      expect(() => dnsEntryName('example.com', name)).toThrow('Syntax error: invalid parameter');
    },
  );
  it('the names that are fine stay fine', () => {
    expect(dnsEntryName('example.com', 'www.Bücher')).toBe('www.xn--bcher-kva.example.com');
    expect(dnsEntryName('example.com', 'WWW.example.com.')).toBe('www.example.com');
    expect(dnsEntryName('example.com', '@')).toBe('example.com');
    expect(challengeRecordName('_acme-challenge.Bücher.example.')).toBe('_acme-challenge.xn--bcher-kva.example');
    expect(canonicalName('www.Bücher.example.')).toBe('www.xn--bcher-kva.example');
  });

  // The URL host parser behind domainToASCII decodes percent escapes first: "ex%41mple.com" is
  // example.com to it, another host than the text names.
  describe('a percent escape is no character of a name either', () => {
    it.each(['bü%41cher.example', 'ex%41mple.bücher.example', 'www.%c3%bc.example'])('zone: %j', (name) => {
      expect(canonicalName(name)).toBeUndefined();
    });
    it.each(['_acme-challenge.exa%41mple.com', '_acme-challenge.bü%41cher.example'])('acme: %j', (name) => {
      expect(() => challengeRecordName(name)).toThrow(/is not a DNS name for a challenge record/);
    });
    it.each(['ex%41mple.com', 'bü%41cher.example'])(
      'configured host: %j is refused, not updated as another host',
      (host) => {
        expect(isHostName(normaliseHost(host))).toBe(false);
        expect(() =>
          loadConfig({
            flags: { host: [host] },
            env: { DDEDGE_DYNDNS_USER: 'u', DDEDGE_DYNDNS_KEY: 'dyndns-key-1' },
            purpose: 'cycle',
            isRoot: false,
          }),
        ).toThrow(/is not a fully qualified host name/);
      },
    );
    it.each(['exä%41mple', 'ex%41mple'])('sandbox: the entry name %j is refused', (name) => {
      expect(() => dnsEntryName('example.com', name)).toThrow('Syntax error: invalid parameter');
    });
  });
});
