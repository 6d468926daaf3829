import { describe, expect, it } from 'vitest';
import { operations } from '../../../src/api/endpoints/index.js';
import { TransportError } from '../../../src/http/errors.js';
import { Registrar } from '../../../src/sdk/index.js';
import { envelope, MOCK_ORIGIN as ORIGIN, useMockAgent } from '../../helpers/mock-api.js';
import { sampleParams } from '../../helpers/sample-params.js';

const mocks = useMockAgent();
let agent: ReturnType<typeof mocks.create> | undefined;
function registrar(extra = {}) {
  agent = mocks.create();
  return new Registrar({ url: ORIGIN, user: 'u', password: 'canary-sdk-password', dispatcher: agent, ...extra });
}

describe('Registrar', () => {
  it('has a method for every operation of the table, posting to its path', async () => {
    const sdk = registrar();
    const paths: string[] = [];
    agent!
      .get(ORIGIN)
      .intercept({ path: /.*/, method: 'POST' })
      .reply((req) => {
        paths.push(req.path);
        // The shape the answer readers require: a list for list operations, the caller's address for hello.
        return {
          statusCode: 200,
          data: envelope({
            ok: true,
            ip: '81.0.2.15',
            ...Object.fromEntries(
              operations()
                .filter((o) => o.endpoint.listKey)
                .map((o) => [o.endpoint.listKey, []]),
            ),
          }),
        };
      })
      .persist();
    for (const o of operations()) {
      const method = (sdk as unknown as Record<string, Record<string, (p: unknown) => Promise<unknown>>>)[o.module]![
        o.method
      ]!;
      await expect(
        method(sampleParams(`${o.module}/${o.endpoint.action}`, o.endpoint)),
        `${o.module}.${o.method}`,
      ).resolves.toMatchObject({ ok: true });
    }
    expect(paths).toEqual(operations().map((o) => `/${o.module}/${o.endpoint.action}/`));
  });

  it('types and normalises: numbers that arrive as strings (renewPeriod "4") become numbers', async () => {
    const sdk = registrar();
    agent!
      .get(ORIGIN)
      .intercept({ path: '/domain/renew/', method: 'POST' })
      .reply(
        200,
        envelope({
          billing: { total: '12.50', currency: 'EUR' },
          domains: [
            {
              name: 'example.com',
              status: 'renewed',
              tld: 'com',
              domainID: '7',
              tsExpir: '2028-01-01',
              renewPeriod: '4',
            },
          ],
        }),
      );
    const result = await sdk.domain.renew({ domain: 'example.com', curExpDate: '20270101' });
    expect(result.domains[0]).toMatchObject({ renewPeriod: 4, domainID: 7 });
    expect(result.billing.total).toBe(12.5);
  });

  it('accepts the status spelling expired-prendingdelete seen from the real service', async () => {
    const sdk = registrar();
    agent!
      .get(ORIGIN)
      .intercept({ path: '/domain/getinfo/', method: 'POST' })
      .reply(
        200,
        envelope({ name: 'example.com', status: 'expired-prendingdelete', tld: 'com', tsExpir: '', domainID: 1 }),
      );
    const info = await sdk.domain.getInfo({ domain: 'example.com' });
    expect(info.status).toBe('expired-prendingdelete');
  });

  it('reads output-format=xml answers into the same typed result', async () => {
    const sdk = registrar({ outputFormat: 'xml' });
    agent!
      .get(ORIGIN)
      .intercept({ path: '/service/dnslist/', method: 'POST', body: (b) => b.includes('output-format=xml') })
      .reply(
        200,
        '<?xml version="1.0"?><data><success>1</success><errorCode>0</errorCode><errorCodeMsg></errorCodeMsg><action>service/dnslist</action><version>1.0.26</version>' +
          '<responseData><queryInfo><page>1</page><pageLength>1000</pageLength><results>2</results><total>2</total></queryInfo>' +
          '<dns><item><entityID>1</entityID><name>example.com</name><type>A</type><ttl>-</ttl><priority>-</priority><value>81.0.2.15</value></item>' +
          '<item><entityID>2</entityID><name>www.example.com</name><type>CNAME</type><ttl>3600</ttl><priority>-</priority><value>example.com</value></item></dns></responseData></data>',
      );
    const result = await sdk.service.dnsList({ serviceName: 'example.com' });
    expect(result.queryInfo).toEqual({ page: 1, pageLength: 1000, results: 2, total: 2 });
    expect(result.dns).toEqual([
      { entityID: '1', name: 'example.com', type: 'A', ttl: '-', priority: '-', value: '81.0.2.15' },
      { entityID: '2', name: 'www.example.com', type: 'CNAME', ttl: '3600', priority: '-', value: 'example.com' },
    ]);
  });

  it('reads an XML error answer into an ApiError', async () => {
    const sdk = registrar({ outputFormat: 'xml' });
    agent!
      .get(ORIGIN)
      .intercept({ path: '/domain/getinfo/', method: 'POST' })
      .reply(
        200,
        '<data><success>0</success><errorCode>2008</errorCode><errorCodeMsg>Domain not found</errorCodeMsg><action>domain/getinfo</action><version>1.0.26</version><messages><message>example.org not found</message></messages><responseData/></data>',
      );
    await expect(sdk.domain.getInfo({ domain: 'example.org' })).rejects.toMatchObject({
      errorCode: 2008,
      kind: 'not-found',
      exitCode: 7,
      messages: ['example.org not found'],
    });
  });

  it('lists: all() over items, pages(), and collect() with a required limit', async () => {
    const sdk = registrar();
    const pool = agent!.get(ORIGIN);
    const domain = (i: number) => ({
      name: `d${i}.com`,
      status: 'active',
      tld: 'com',
      tsExpir: '2027-01-01',
      domainID: i,
    });
    for (const page of [1, 2, 3]) {
      pool
        .intercept({
          path: '/domain/list/',
          method: 'POST',
          body: (b) => new URLSearchParams(b).get('page') === String(page),
        })
        .reply(
          200,
          envelope({
            queryInfo: { page, pageLength: 2, results: page < 3 ? 2 : 1, total: 5 },
            domains: page < 3 ? [domain(page * 2 - 1), domain(page * 2)] : [domain(5)],
          }),
        )
        .persist();
    }
    const names: string[] = [];
    for await (const d of sdk.domain.list.all({ pageLength: 2 })) names.push(d.name);
    expect(names).toEqual(['d1.com', 'd2.com', 'd3.com', 'd4.com', 'd5.com']);
    const pages: number[] = [];
    for await (const p of sdk.domain.list.pages({ pageLength: 2 })) pages.push(p.queryInfo.page);
    expect(pages).toEqual([1, 2, 3]);
    expect((await sdk.domain.list.collect({ pageLength: 2 }, { limit: 3 })).map((d) => d.domainID)).toEqual([1, 2, 3]);
    await expect(sdk.domain.list.collect({}, {} as { limit: number })).rejects.toThrow(/needs \{ limit \}/);
  });

  it('never retries a call that spends balance', async () => {
    const sdk = registrar();
    const pool = agent!.get(ORIGIN);
    pool.intercept({ path: '/domain/renew/', method: 'POST' }).reply(503, 'busy');
    pool.intercept({ path: '/domain/renew/', method: 'POST' }).reply(200, envelope({}));
    const error = await sdk.domain.renew({ domain: 'example.com', curExpDate: '2027-01-01' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(() => agent!.assertNoPendingInterceptors()).toThrow(); // the second answer was never asked for
  });

  it('retries a read after a connection error', async () => {
    const sdk = registrar();
    const pool = agent!.get(ORIGIN);
    pool
      .intercept({ path: '/account/info/', method: 'POST' })
      .replyWithError(Object.assign(new Error('reset'), { code: 'ECONNRESET' }));
    pool
      .intercept({ path: '/account/info/', method: 'POST' })
      .reply(200, envelope({ clientName: 'Demo', balance: '10.5' }));
    expect(await sdk.account.info()).toMatchObject({ clientName: 'Demo', balance: 10.5 });
  });
});
