// The two protocols' bodies, read as lego, acme.sh, Caddy's module and goacmedns send them.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { challengeNameOf, readAcmeDnsUpdate } from '../../../../src/gateway/acme-http/acme-dns.js';
import { readHttpreq } from '../../../../src/gateway/acme-http/httpreq.js';

const VALUE = 'LHDhK3oGRvkiefQnx7OOczTY5Tic_xZ6HcMOc_gmtoM';

describe('httpreq bodies', () => {
  it('default mode: the name without its dot and case, the value, and the echo exactly as sent', () => {
    expect(readHttpreq(JSON.stringify({ fqdn: '_ACME-challenge.Example.com.', value: VALUE }))).toEqual({
      name: '_acme-challenge.example.com',
      value: VALUE,
      echo: { fqdn: '_ACME-challenge.Example.com.', value: VALUE },
    });
  });

  it('a field given twice in two cases: the later is read, as Go reads it; the name judged is the one written', () => {
    const body =
      '{"fqdn": "_acme-challenge.other.example.com", "FQDN": "_acme-challenge.example.com", ' + `"value": "${VALUE}"}`;
    expect(readHttpreq(body)).toEqual({
      name: '_acme-challenge.example.com',
      value: VALUE,
      echo: { fqdn: '_acme-challenge.example.com', value: VALUE },
    });
  });

  it("RAW mode: the value is the base64url SHA-256 of keyAuth; a wildcard's domain is its name's", () => {
    const keyAuth = 'token.thumbprint';
    const value = createHash('sha256').update(keyAuth).digest('base64url');
    for (const domain of ['example.com', '*.example.com', 'example.com.'])
      expect(readHttpreq(JSON.stringify({ domain, token: 'token', keyAuth }))).toEqual({
        name: '_acme-challenge.example.com',
        value,
        echo: { fqdn: '_acme-challenge.example.com.', value },
      });
  });

  it.each([
    ['not json', /not JSON/],
    ['[]', /not a JSON object/],
    ['{}', /give \{"fqdn", "value"\}/],
    [JSON.stringify({ fqdn: '_acme-challenge.example.com.' }), /give both/],
    [JSON.stringify({ fqdn: 'a b.example.com', value: VALUE }), /not a full host name/],
    [JSON.stringify({ fqdn: '*.example.com', value: VALUE }), /not a full host name/],
    [JSON.stringify({ fqdn: 'localhost', value: VALUE }), /not a full host name/],
    [JSON.stringify({ fqdn: '_acme-challenge.example.com', value: 'a"b' }), /not an ACME challenge value/],
    [JSON.stringify({ fqdn: '_acme-challenge.example.com', value: 5 }), /give both/],
    [JSON.stringify({ domain: 'example.com', keyAuth: '' }), /not a key authorization/],
    [JSON.stringify({ domain: 'com', keyAuth: 'a.b' }), /not a full host name/],
  ])('%s is refused: %s', (body, why) => {
    expect(readHttpreq(body)).toMatch(why);
  });
});

describe('acme-dns bodies', () => {
  it('reads subdomain and txt in any case; the subdomain is the domain or its challenge name', () => {
    for (const body of [
      { subdomain: 'example.com', txt: VALUE },
      { SubDomain: 'Example.COM', Txt: VALUE },
      { subdomain: '_acme-challenge.example.com', txt: VALUE },
    ])
      expect(readAcmeDnsUpdate(JSON.stringify(body))).toEqual({ name: '_acme-challenge.example.com', value: VALUE });
  });

  it("says what is wrong in acme-dns's words", () => {
    expect(readAcmeDnsUpdate('{')).toEqual({ error: 'malformed_json_payload' });
    expect(readAcmeDnsUpdate(JSON.stringify({ subdomain: 'x', txt: VALUE }))).toMatchObject({
      error: 'bad_subdomain',
      why: expect.stringMatching(/^"subdomain" names no domain/),
    });
    expect(readAcmeDnsUpdate(JSON.stringify({ subdomain: 'example.com', txt: `${VALUE}x` }))).toEqual({
      error: 'bad_txt',
    });
  });

  it('maps a domain to its challenge name, and refuses what is no full host name', () => {
    expect(challengeNameOf('*.example.com')).toBe('_acme-challenge.example.com');
    expect(challengeNameOf('example')).toBeUndefined();
    expect(challengeNameOf(`${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(50)}`)).toBeUndefined();
  });
});
