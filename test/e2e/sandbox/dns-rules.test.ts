// The sandbox's DNS zone refuses what a provider's name server cannot hold, so that the zone
// conformance suite tests against provider-like behaviour: CNAMEs alone at their name, values
// in the forms of the spec's table 2.6, names in punycode, dnssetzone within the plan's limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service } from '../../../src/api/endpoints/service.js';
import { ApiError, type Registrar } from '../../../src/sdk/index.js';
import { sandboxRegistrar } from '../../helpers/sandbox-sdk.js';
import { emptyZone } from '../../helpers/zone.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox({ per: 'file' });
let api: Registrar;
beforeAll(async () => {
  api = sandboxRegistrar(sandbox);
});
afterAll(async () => {
  await api.close();
});
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 0,
    (e: unknown) => (e instanceof ApiError ? e.errorCode : -1),
  );
const s = { serviceName: 'rules.example' };

describe('sandbox DNS rules', () => {
  it('a CNAME must have its name to itself (4004), both ways', async () => {
    emptyZone(sandbox, s.serviceName);
    await api.service.dnsCreate({ ...s, name: 'a', type: 'A', value: '192.0.2.1' });
    expect(await codeOf(api.service.dnsCreate({ ...s, name: 'a', type: 'CNAME', value: 'x.example.net' }))).toBe(4004);
    await api.service.dnsCreate({ ...s, name: 'c', type: 'CNAME', value: 'x.example.net' });
    expect(await codeOf(api.service.dnsCreate({ ...s, name: 'c', type: 'TXT', value: 'x' }))).toBe(4004);
    expect(
      await codeOf(
        api.service.dnsSetZone({
          ...s,
          records: [
            { name: 'd', type: 'CNAME', value: 'x.example.net' },
            { name: 'd', type: 'A', value: '192.0.2.1' },
          ],
        }),
      ),
    ).toBe(4004);
  });

  it.each([
    ['SRV', 'not three fields'],
    ['SRV', '5 70000 sip.example.net'],
    ['CAA', '0 issue letsencrypt.org'],
    ['CAA', '300 issue "x"'],
    ['MX', 'not a host!'],
    ['CNAME', ''],
  ])('refuses a %s value "%s" (105)', async (type, value) => {
    emptyZone(sandbox, s.serviceName);
    // Through the client by name: the SDK's types would not let these values be written.
    expect(
      await codeOf(api.client.call('service', service.dnsCreate, { ...s, name: 'v', type, value: value || ' ' })),
    ).toBe(105);
  });

  it('keeps names in lower case and punycode; dnssetzone keeps a TTL of 0 and gives MX and SRV priority 10', async () => {
    emptyZone(sandbox, s.serviceName);
    await api.service.dnsCreate({ ...s, name: 'Bücher', type: 'A', value: '192.0.2.1' });
    await api.service.dnsSetZone({
      ...s,
      records: [
        { name: 'Bücher', type: 'A', value: '192.0.2.1', ttl: 0 },
        { name: '@', type: 'MX', value: 'mx.example.net' },
      ],
    });
    expect((await api.service.dnsList(s)).dns.map((e) => `${e.name} ${e.ttl} ${e.type} ${e.priority}`)).toEqual([
      `xn--bcher-kva.${s.serviceName} 0 A -`,
      `${s.serviceName} - MX 10`,
    ]);
  });

  it("dnssetzone past the plan's DNS limit is 4003; pages of dnslist go past 1,000 entries", async () => {
    const service = emptyZone(sandbox, s.serviceName);
    const records = Array.from({ length: 2500 }, (_, i) => ({ name: `h${i}`, type: 'A' as const, value: '192.0.2.1' }));
    await api.service.dnsSetZone({ ...s, records });
    const pages = [];
    for await (const page of api.service.dnsList.pages(s)) pages.push(page.items.length);
    expect(pages).toEqual([1000, 1000, 500]);
    service.productkey = 'basic';
    expect(await codeOf(api.service.dnsSetZone({ ...s, records }))).toBe(4003);
  });
});
