// An update's filtered readings are allowed a number of pages in all (update/reading.ts): a name
// whose filter lists more (a parent of many names) ends the reading after its first page, whose
// total says so, instead of reading every page. Against the sandbox, calls counted by it.
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../../src/api/client.js';
import type { DnsEntry } from '../../../../src/api/endpoints/service.js';
import { undiciTransport } from '../../../../src/http/undici-transport.js';
import { BroadFilterError, providerZone } from '../../../../src/zone/provider/provider-zone.js';
import { useSandbox } from '../../../helpers/use-sandbox.js';

const sandbox = useSandbox({ per: 'file' });
const lists = () => sandbox.calls.get('service/dnslist') ?? 0;

beforeAll(async () => {
  const service = sandbox.model.services.find((s) => s.name === 'example.com')!;
  service.productkey = 'corporate';
  for (let i = 0; i < 5_000; i++)
    service.dns.push({
      entityID: String(900_000 + i),
      name: `h${i}.dyn.example.com`,
      type: 'A',
      ttl: '300',
      priority: '-',
      value: `10.0.${i >> 8}.${i & 255}`,
    } as DnsEntry);
});

describe('filtered readings with a page allowance', () => {
  const zone = () =>
    providerZone(
      new ApiClient({
        url: sandbox.url,
        user: 'demo-user',
        password: 'demo-api-password',
        transport: undiciTransport(),
      }),
      'example.com',
    );

  it('a name whose filter lists more pages than allowed ends the reading after its first page', async () => {
    const before = lists();
    const error = await zone()
      .listNames(['dyn.example.com'], { left: 3 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BroadFilterError);
    expect((error as BroadFilterError).pages).toBe(5);
    expect(lists() - before).toBe(1);
  });

  it('within the allowance every page is read, and taken from it', async () => {
    const allowance = { left: 6 };
    const before = lists();
    const records = await zone().listNames(['dyn.example.com', 'h7.dyn.example.com'], allowance);
    expect(records.map((r) => r.name)).toEqual(['h7.dyn.example.com']);
    expect(lists() - before).toBe(6);
    expect(allowance.left).toBe(0);
    // Nothing left: the next name is not read at all.
    const again = lists();
    await expect(zone().listNames(['h8.dyn.example.com'], allowance)).rejects.toBeInstanceOf(BroadFilterError);
    expect(lists()).toBe(again);
  });
});
