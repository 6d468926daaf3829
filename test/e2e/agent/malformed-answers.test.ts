// Answers that do not have the documented shape are malformed (exit 4, one line, nothing
// created); refusals are judged by structure and known texts; paging always ends. Each runs the
// agent against a small hostile server: the built file for the first answers, main() in this
// process for the rest (the same parsing, no process start).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import { baseEnv, runDist, runMain, tempDir } from '../../helpers/cli.js';
import { envelope } from '../../helpers/mock-api.js';
import { startServer, type TestServer } from '../../helpers/servers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A registrar API that answers each /<module>/<action>/ with what `answer` returns. */
async function hostileApi(answer: (path: string, form: URLSearchParams) => string): Promise<TestServer> {
  server = await startServer((req, res, body) => {
    res.setHeader('content-type', 'application/json');
    res.end(answer(req.url ?? '', new URLSearchParams(body)));
  });
  return server;
}

/** A dynamic DNS interface that answers every update with `body`. */
async function hostileDyndns(body: string): Promise<TestServer> {
  server = await startServer((_req, res) => res.end(body));
  return server;
}

const apiEnv = (api: TestServer, extra: Record<string, string> = {}) =>
  baseEnv({
    DDEDGE_API_URL: api.url,
    DDEDGE_API_USER: 'u',
    DDEDGE_API_PASSWORD: 'hostile-api-pw',
    DDEDGE_STATE_DIR: tempDir(),
    DDEDGE_HOSTS: 'home.example.com',
    DDEDGE_VIA: 'api',
    DDEDGE_TIMEOUT: '3s',
    ...extra,
  });
const dyndnsEnv = (dyndns: TestServer, extra: Record<string, string> = {}) =>
  baseEnv({
    DDEDGE_DYNDNS_URL: dyndns.url,
    DDEDGE_DYNDNS_USER: 'u',
    DDEDGE_DYNDNS_KEY: 'hostile-dyndns-key',
    DDEDGE_STATE_DIR: tempDir(),
    DDEDGE_HOSTS: 'home.example.com',
    DDEDGE_TIMEOUT: '3s',
    ...extra,
  });
const creates = (api: TestServer) => api.requests.filter((r) => r.url === '/service/dnscreate/').length;
const stateText = (env: Record<string, string>) => readFileSync(join(env.DDEDGE_STATE_DIR!, 'state.json'), 'utf8');

/** One line on stderr, no stack trace anywhere the user or the state can see. */
function expectOneLineMalformed(
  result: { code: number | null; stdout: string; stderr: string },
  env: Record<string, string>,
) {
  expect(result.code, result.stderr).toBe(4);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(/malformed/);
  for (const text of [result.stdout, result.stderr, stateText(env)]) {
    expect(text).not.toMatch(/\n\s+at |internal error|TypeError|RangeError/);
  }
}

describe('a dnslist answer without the documented shape is malformed, never an empty zone', () => {
  it.each([
    ['responseData {}', {}],
    ['dns "garbage"', { dns: 'garbage' }],
    ['dns null', { dns: null }],
    ['an entry without entityID', { dns: [{ name: 'home.example.com', type: 'A', value: '192.0.2.20' }] }],
  ])('%s: exit 4, one line, nothing created', async (_name, responseData) => {
    const api = await hostileApi((path) => (path === '/service/dnslist/' ? envelope(responseData) : envelope({})));
    const env = apiEnv(api);
    const result = await runDist(['update', '--ip', '81.0.2.15', '--json'], env);
    expect(result.code).toBe(4);
    expect(JSON.parse(result.stdout).hosts[0]).toMatchObject({
      action: 'failed',
      message: expect.stringMatching(/malformed answer .*responseData/),
    });
    expect(creates(api)).toBe(0);
    expect(api.requests.some((r) => r.url === '/service/dnsupdate/')).toBe(false);
  });
});

describe('the caller address of tool/hello must be an address', () => {
  it.each([
    ['an object', { toString: 1 }],
    ['text', 'not-an-address'],
    ['missing', undefined],
  ])('ip %s: exit 4, nothing sent', async (_name, ip) => {
    const api = await hostileApi((path) =>
      path === '/tool/hello/' ? envelope({ ip, lang: 'en' }) : envelope({ dns: [] }),
    );
    const env = apiEnv(api, { DDEDGE_IP_SOURCES: 'server' });
    const result = await runMain(['update'], env);
    expectOneLineMalformed(result, env);
    expect(api.requests.map((r) => r.url)).toEqual(['/tool/hello/']);
  });
});

describe('objects where text belongs and deep nesting are malformed (exit 4, one line)', () => {
  const deepJson = '['.repeat(100_000) + ']'.repeat(100_000);
  it.each([
    ['messages [{"toString":1}]', () => envelope([], { success: false, errorCode: 1000, messages: [{ toString: 1 }] })],
    ['errorCodeMsg an object', () => envelope([], { success: false, errorCode: 1000, errorCodeMsg: { valueOf: 1 } })],
    ['version an object', () => envelope({ dns: [] }, { version: { toString: 'x' } })],
    ['deeply nested responseData', () => `{"success":true,"errorCode":0,"responseData":${deepJson}}`],
  ])('API envelope with %s', async (_name, body) => {
    const api = await hostileApi(() => body());
    const env = apiEnv(api);
    const result = await runMain(['update', '--ip', '81.0.2.15'], env);
    expectOneLineMalformed(result, env);
    const json = await runMain(['update', '--ip', '81.0.2.15', '--json'], env);
    expect(json.stdout).not.toMatch(/\\n\s+at /);
    expect(JSON.parse(json.stdout).exitCode).toBe(4);
  });

  it.each([
    ['json', '{"success":false,"messages":[{"toString":1}]}'],
    [
      'json',
      '{"success":true,"host":{"value":"81.0.2.15"},"messages":' + '['.repeat(50_000) + ']'.repeat(50_000) + '}',
    ],
    ['xml', '<data success="true">' + '<a>'.repeat(50_000) + '</a>'.repeat(50_000) + '</data>'],
  ])('dynamic DNS %s answer: objects or deep nesting', async (format, body) => {
    const dyndns = await hostileDyndns(body);
    const env = dyndnsEnv(dyndns, { DDEDGE_DYNDNS_FORMAT: format });
    expectOneLineMalformed(await runMain(['update', '--ip', '81.0.2.15'], env), env);
  });
});

describe('the kind of a dynamic DNS refusal comes from structure and known texts, not from words in a host name', () => {
  it.each([
    ['json', 'monkey.example.com', '{"success":false,"messages":["Host monkey.example.com not found"]}'],
    [
      'json',
      'author.example.com',
      '{"success":false,"user":"u","messages":["Host author.example.com not found in your DNS zones"]}',
    ],
    ['plain', 'login-user.example.com', 'ERROR\nHost login-user.example.com not found\n'],
    [
      'xml',
      'passwordless.example.com',
      '<data success="false"><errors><error>Host passwordless.example.com not found</error></errors></data>',
    ],
  ])('%s answer naming %s: refused (exit 7), not rejected credentials', async (format, host, body) => {
    const dyndns = await hostileDyndns(body);
    const result = await runMain(
      ['update', '--ip', '81.0.2.15'],
      dyndnsEnv(dyndns, { DDEDGE_DYNDNS_FORMAT: format, DDEDGE_HOSTS: host }),
    );
    expect(result.code, result.stderr).toBe(7);
    expect(result.stderr).not.toContain('check DDEDGE_DYNDNS_USER');
  });

  it.each([
    ['json', '{"success":false,"messages":["Incorrect data"]}'],
    ['plain', 'ERROR\nIncorrect data\n'],
    ['xml', '<data success="false"><errors><error>Datos incorrectos.</error></errors></data>'],
  ])('the known text for wrong credentials in a %s answer is still exit 3', async (format, body) => {
    const dyndns = await hostileDyndns(body);
    const result = await runMain(
      ['update', '--ip', '81.0.2.15'],
      dyndnsEnv(dyndns, { DDEDGE_DYNDNS_FORMAT: format, DDEDGE_HOSTS: 'monkey.example.com' }),
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('check DDEDGE_DYNDNS_USER and DDEDGE_DYNDNS_KEY');
  });

  it('a known text with the host part in the answer is not credentials (the user and key were accepted)', async () => {
    const dyndns = await hostileDyndns(
      '{"success":false,"user":"u","host":{"name":"home.example.com","value":"192.0.2.20","type":"A","updated":false},"messages":["Incorrect data"]}',
    );
    expect((await runMain(['update', '--ip', '81.0.2.15'], dyndnsEnv(dyndns))).code).toBe(7);
  });
});

describe('duplicate keys and attributes are malformed, not "last one wins"', () => {
  it.each([
    ['json', '{"success":false,"success":true,"host":{"value":"81.0.2.15","updated":true}}'],
    ['json', '{"success":true,"host":{"value":"81.0.2.15","value":"6.6.6.6"}}'],
    ['xml', '<data success="false" success="true"><informs><inform>x</inform></informs></data>'],
  ])('dynamic DNS %s answer %s', async (format, body) => {
    const dyndns = await hostileDyndns(body);
    const env = dyndnsEnv(dyndns, { DDEDGE_DYNDNS_FORMAT: format });
    expectOneLineMalformed(await runMain(['update', '--ip', '81.0.2.15'], env), env);
  });

  it('an API envelope with "success" twice', async () => {
    const api = await hostileApi(() => '{"success":false,"errorCode":0,"success":true,"responseData":{"dns":[]}}');
    const env = apiEnv(api);
    expectOneLineMalformed(await runMain(['update', '--ip', '81.0.2.15'], env), env);
    expect(creates(api)).toBe(0);
  });
});

describe('paging always ends', () => {
  // Pages that never end and never say their total: a new entry on every page.
  const endless = (path: string, form: URLSearchParams) =>
    path === '/service/dnslist/'
      ? envelope({
          queryInfo: { page: Number(form.get('page')) },
          dns: [
            {
              entityID: form.get('page'),
              name: `n${form.get('page')}.example.com`,
              type: 'A',
              value: '192.0.2.1',
              ttl: '900',
              priority: '0',
            },
          ],
        })
      : envelope({});
  // The same page whatever `page` asks, without a total.
  const sameAgain = (path: string) =>
    path === '/service/dnslist/'
      ? envelope({ queryInfo: {}, dns: [{ entityID: '7', name: 'other.example.com', type: 'A', value: '192.0.2.1' }] })
      : envelope({});

  it('update --via api stops after 8 pages without a total: exit 4, nothing created', async () => {
    const api = await hostileApi(endless);
    const result = await runMain(['update', '--ip', '81.0.2.15'], apiEnv(api));
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/stopped after 8 pages/);
    expect(api.requests.filter((r) => r.url === '/service/dnslist/')).toHaveLength(8);
    expect(creates(api)).toBe(0);
  });

  it('api --all stops after 8 pages (exit 4) and on a repeated page (exit 0, two requests)', async () => {
    const api = await hostileApi(endless);
    const env = apiEnv(api);
    const capped = await runMain(['api', 'service', 'dnslist', '--serviceName', 'example.com', '--all'], env);
    expect(capped.code).toBe(4);
    expect(api.requests).toHaveLength(8);
    await server!.close();
    const again = await hostileApi(sameAgain);
    const repeated = await runMain(
      ['api', 'service', 'dnslist', '--serviceName', 'example.com', '--all'],
      apiEnv(again),
    );
    expect(repeated.code).toBe(0);
    expect(JSON.parse(repeated.stdout).dns).toHaveLength(1);
    expect(again.requests).toHaveLength(2);
  });

  it('a repeated page while the total says more is exit 4', async () => {
    const api = await hostileApi((path) =>
      path === '/service/dnslist/'
        ? envelope({
            queryInfo: { total: 50 },
            dns: [{ entityID: '7', name: 'a.example.com', type: 'A', value: '192.0.2.1' }],
          })
        : envelope({}),
    );
    const result = await runMain(['api', 'service', 'dnslist', '--serviceName', 'example.com', '--all'], apiEnv(api));
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/page 2 with the entries of page 1/);
    expect(api.requests).toHaveLength(2);
  });

  it('a short page ends the listing when the page length is known', async () => {
    const api = await hostileApi((path) =>
      path === '/service/dnslist/'
        ? envelope({
            queryInfo: { pageLength: 5 },
            dns: [{ entityID: '7', name: 'a.example.com', type: 'A', value: '192.0.2.1' }],
          })
        : envelope({}),
    );
    const result = await runMain(['update', '--ip', '81.0.2.15'], apiEnv(api));
    expect(result.code).toBe(0);
    expect(api.requests.filter((r) => r.url === '/service/dnslist/')).toHaveLength(1);
    expect(creates(api)).toBe(1);
  });
});
