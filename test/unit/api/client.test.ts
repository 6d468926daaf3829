import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { service } from '../../../src/api/endpoints/service.js';
import { tool } from '../../../src/api/endpoints/tool.js';
import { ApiError, apiErrorKind } from '../../../src/api/errors.js';
import { ValidationError } from '../../../src/lib/errors.js';
import { TransportError } from '../../../src/http/errors.js';
import { createLogger } from '../../../src/lib/log.js';
import { envelope, MOCK_ORIGIN, useMockAgent } from '../../helpers/mock-api.js';

const ORIGIN = MOCK_ORIGIN;
const failure = (errorCode: number, errorCodeMsg: string) =>
  JSON.stringify({
    success: false,
    errorCode,
    errorCodeMsg,
    action: 'service/dnslist',
    version: '1.0.26',
    messages: ['detail'],
    responseData: [],
  });

const mocks = useMockAgent();
let agent: ReturnType<typeof mocks.create> | undefined;
const client = (extra = {}) => {
  agent = mocks.create();
  return new ApiClient({
    url: ORIGIN,
    user: 'apiuser1',
    password: 'canary-api-password',
    dispatcher: agent,
    attempts: 3,
    ...extra,
  });
};

describe('registrar API client', () => {
  it('POSTs the form with credentials and output-format=json to /<module>/<action>/', async () => {
    const api = client();
    let seen: { path: string; body: string; headers: Record<string, string> } | undefined;
    agent!
      .get(ORIGIN)
      .intercept({ path: '/service/dnslist/', method: 'POST' })
      .reply((options) => {
        seen = { path: options.path, body: String(options.body), headers: options.headers as Record<string, string> };
        return {
          statusCode: 200,
          data: envelope({ queryInfo: { page: 1, pageLength: 1000, results: 0, total: 0 }, dns: [] }),
        };
      });
    await api.call('service', service.dnsList, { serviceName: 'example.com' });
    const form = new URLSearchParams(seen!.body);
    expect(Object.fromEntries(form)).toEqual({
      apiuser: 'apiuser1',
      apipasswd: 'canary-api-password',
      'output-format': 'json',
      'output-pretty': 'false',
      serviceName: 'example.com',
    });
    expect(seen!.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it.each([
    [1004, 'Account invalid password', 'auth', 3],
    [1030, 'Account banned', 'blocked', 3],
    [1007, 'IP not allowed', 'blocked', 3],
    [4001, 'Service not found', 'not-found', 7],
    [4002, 'Service entity not found', 'not-found', 7],
    [2003, 'TLD under maintenance', 'transient', 4],
    [1100, 'Insufficient balance', 'billing', 7],
  ])('success:false with code %i (%s) becomes ApiError of kind %s, exit %i', async (code, message, kind, exitCode) => {
    const api = client();
    agent!.get(ORIGIN).intercept({ path: '/service/dnslist/', method: 'POST' }).reply(200, failure(code, message));
    const error = (await api
      .call('service', service.dnsList, { serviceName: 'example.com' })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect([error.errorCode, error.kind, error.exitCode, error.messages]).toEqual([code, kind, exitCode, ['detail']]);
    expect(error.message).toContain(message);
    expect(error.message).not.toContain('canary-api-password');
  });

  it('classifies every code of the field notes table', () => {
    expect(apiErrorKind(102)).toBe('bad-request');
    expect(apiErrorKind(2010)).toBe('refused');
    expect(apiErrorKind(5001)).toBe('not-found');
    expect(apiErrorKind(99999)).toBe('unknown');
  });

  it.each(['<html>Bad gateway</html>', '', '{"responseData":{}}', '[1,2]'])(
    'an answer that is not the envelope is malformed (exit 4): %j',
    async (body) => {
      const api = client({ attempts: 1 });
      agent!.get(ORIGIN).intercept({ path: '/tool/hello/', method: 'POST' }).reply(200, body);
      const error = (await api.call('tool', tool.hello).catch((e: unknown) => e)) as TransportError;
      expect(error).toBeInstanceOf(TransportError);
      expect([error.kind, error.exitCode]).toEqual(['malformed', 4]);
    },
  );

  it('retries an idempotent call after a 5xx, and never a create', async () => {
    const api = client();
    const pool = agent!.get(ORIGIN);
    pool.intercept({ path: '/service/dnsupdate/', method: 'POST' }).reply(502, 'bad gateway');
    pool.intercept({ path: '/service/dnsupdate/', method: 'POST' }).reply(200, envelope({ dns: [] }));
    await expect(
      api.call('service', service.dnsUpdate, { serviceName: 'example.com', entityID: '3', value: '81.0.2.15' }),
    ).resolves.toEqual({ dns: [] });

    pool.intercept({ path: '/service/dnscreate/', method: 'POST' }).reply(502, 'bad gateway');
    pool.intercept({ path: '/service/dnscreate/', method: 'POST' }).reply(200, envelope({ dns: [] }));
    const error = (await api
      .call('service', service.dnsCreate, { serviceName: 'example.com', name: 'h', type: 'A', value: '81.0.2.15' })
      .catch((e: unknown) => e)) as TransportError;
    expect([error.kind, error.status]).toEqual(['status', 502]);
  });

  it('validates before sending: every offending parameter is named and nothing is sent', async () => {
    const api = client();
    const error = (await api
      .call('service', service.dnsCreate, { name: 'h', type: 'PTR', ttl: 'soon', color: 'red' })
      .catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.exitCode).toBe(2);
    expect(error.problems.join('\n')).toMatch(/unknown parameter "color"/);
    expect(error.problems.join('\n')).toMatch(/"serviceName" is required/);
    expect(error.problems.join('\n')).toMatch(/"type" must be one of A, AAAA/);
    expect(error.problems.join('\n')).toMatch(/"value" is required/);
    expect(error.problems.join('\n')).toMatch(/"ttl" must be a whole number/);
    expect(() => agent!.assertNoPendingInterceptors()).not.toThrow();
  });

  it('follows queryInfo across pages until total', async () => {
    const api = client();
    const pool = agent!.get(ORIGIN);
    const entry = (id: number) => ({
      entityID: String(id),
      name: `h${id}.example.com`,
      type: 'A',
      ttl: '-',
      priority: '-',
      value: '81.0.2.15',
    });
    pool
      .intercept({ path: '/service/dnslist/', method: 'POST', body: (b) => b.includes('page=1') })
      .reply(200, envelope({ queryInfo: { page: 1, pageLength: 2, results: 2, total: 3 }, dns: [entry(1), entry(2)] }));
    pool
      .intercept({ path: '/service/dnslist/', method: 'POST', body: (b) => b.includes('page=2') })
      .reply(200, envelope({ queryInfo: { page: 2, pageLength: 2, results: 1, total: 3 }, dns: [entry(3)] }));
    const ids: string[] = [];
    for await (const page of api.pages<{ entityID: string }>('service', service.dnsList, {
      serviceName: 'example.com',
      pageLength: 2,
    }))
      ids.push(...page.items.map((e) => e.entityID));
    expect(ids).toEqual(['1', '2', '3']);
  });

  it('follows total past 8 pages, and stops a listing that runs past what total announced', async () => {
    const entry = (id: number) => ({
      entityID: String(id),
      name: `h${id}.example.com`,
      type: 'A',
      ttl: '-',
      priority: '-',
      value: '81.0.2.15',
    });
    // 12 pages of one entry: total 12 is followed to its end.
    let api = client();
    let pool = agent!.get(ORIGIN);
    for (let page = 1; page <= 12; page++)
      pool
        .intercept({
          path: '/service/dnslist/',
          method: 'POST',
          body: (b) => new URLSearchParams(b).get('page') === String(page),
        })
        .reply(200, envelope({ queryInfo: { page, pageLength: 1, results: 1, total: 12 }, dns: [entry(page)] }));
    const ids: string[] = [];
    for await (const page of api.pages<{ entityID: string }>('service', service.dnsList, {
      serviceName: 'example.com',
      pageLength: 1,
    }))
      ids.push(...page.items.map((e) => e.entityID));
    expect(ids).toHaveLength(12);
    // A provider that says total 10 and would go on giving new entries: the listing ends at 10.
    api = client();
    pool = agent!.get(ORIGIN);
    let asked = 0;
    pool
      .intercept({ path: '/service/dnslist/', method: 'POST' })
      .reply((options) => {
        const page = Number(new URLSearchParams(String(options.body)).get('page'));
        asked++;
        return {
          statusCode: 200,
          data: envelope({ queryInfo: { page, pageLength: 1, results: 1, total: 10 }, dns: [entry(page * 1000)] }),
        };
      })
      .persist();
    const pages = async () => {
      for await (const page of api.pages('service', service.dnsList, { serviceName: 'example.com', pageLength: 1 }))
        void page;
    };
    // total is reached after 10 pages: the listing ends there, whatever the provider would add.
    await pages();
    expect(asked).toBe(10);
  });

  it('warns once when the answer is a newer API version than it knows', async () => {
    const lines: string[] = [];
    const api = client({ logger: createLogger({ level: 'warn', format: 'text', write: (l) => lines.push(l) }) });
    const pool = agent!.get(ORIGIN);
    pool
      .intercept({ path: '/tool/hello/', method: 'POST' })
      .reply(200, envelope({ ip: '81.0.2.15' }, { version: '1.2.0' }))
      .times(2);
    await api.call('tool', tool.hello);
    await api.call('tool', tool.hello);
    expect(lines.filter((l) => l.includes('version 1.2.0'))).toHaveLength(1);
  });
});

describe('connection limit', () => {
  it('never opens more than 3 connections to the API, however many calls are in flight', async () => {
    const { createServer } = await import('node:http');
    let connections = 0;
    let inFlight = 0;
    let mostInFlight = 0;
    const server = createServer((_req, res) => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        res.end(envelope({ ip: '127.0.0.1', lang: 'en', version: '1.0.26' }));
      }, 20);
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as import('node:net').AddressInfo;
    const api = new ApiClient({ url: `http://127.0.0.1:${port}`, user: 'u', password: 'p-123456' });
    await Promise.all(Array.from({ length: 12 }, () => api.call('tool', tool.hello)));
    await api.close();
    server.closeAllConnections();
    server.close();
    expect(connections).toBe(3);
    expect(mostInFlight).toBe(3);
  });
});
