// A dynamic DNS answer that says "success" about another host or another address than the
// request's. Reported as `updated` and cached for a week, it would leave the record wrong
// and stop ddedge from ever correcting it. It is a failure (exit 4: an answer that does not
// match the request is as untrustworthy as a malformed one, and the next cycle may get a
// true one), and nothing is cached.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { baseEnv, runDist, runMain, tempDir } from '../../helpers/cli.js';
import { startServer, type TestServer } from '../../helpers/servers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const HOST = 'home.example.com';
const SENT = '81.0.2.15';

const env = (format: string, extra: Record<string, string> = {}) =>
  baseEnv({
    DDEDGE_DYNDNS_URL: server!.url,
    DDEDGE_DYNDNS_FORMAT: format,
    DDEDGE_DYNDNS_USER: 'u',
    DDEDGE_DYNDNS_KEY: 'key-12345678',
    DDEDGE_STATE_DIR: tempDir(),
    DDEDGE_HOSTS: HOST,
    ...extra,
  });

const json = (name: string, value: string, updated = true) =>
  JSON.stringify({ success: true, user: 'u', host: { name, value, type: 'A', updated }, messages: [] });
const xml = (name: string, value: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><data success="true" version="2.0"><resData><user t="2026-11-23T10:00:00Z">u</user><request success="true"/></resData><host type="A"><name>${name}</name><value>${value}</value></host><informs><inform>updated</inform></informs></data>`;

const contradictions: [string, string, string][] = [
  ['json, another host and another address', 'json', json('other.example.org', '6.6.6.6')],
  ['json, another host', 'json', json('other.example.org', SENT)],
  ['json, another address', 'json', json(HOST, '6.6.6.6')],
  ['json, another address, "not updated"', 'json', json(HOST, '6.6.6.6', false)],
  ['xml, another host and another address', 'xml', xml('other.example.org', '6.6.6.6')],
  ['xml, another address', 'xml', xml(HOST, '6.6.6.6')],
  ['plain, another address (UPDATE:)', 'plain', 'OK\nUPDATE: 6.6.6.6\n'],
  ['plain, another address (IP:)', 'plain', 'OK\nIP:6.6.6.6\n'],
];

describe('a dynamic DNS answer that contradicts the request', () => {
  it.each(contradictions)('%s: failed, exit 4, not cached, sent again next cycle', async (_name, format, answer) => {
    server = await startServer(answer);
    const settings = env(format);
    const result = await runDist(['update', '--ip', SENT, '--json'], settings);
    expect(result.code).toBe(4);
    const report = JSON.parse(result.stdout);
    expect(report.hosts).toMatchObject([{ host: HOST, type: 'A', action: 'failed', via: 'dyndns' }]);
    expect(report.hosts[0].message).toMatch(
      /the dynamic DNS answer .*(other\.example\.org|6\.6\.6\.6).*the request was .*home\.example\.com.*81\.0\.2\.15/,
    );
    const state = JSON.parse(readFileSync(join(settings.DDEDGE_STATE_DIR!, 'state.json'), 'utf8'));
    expect(state.records[`${HOST}/A`].address).toBeUndefined();
    expect(state.records[`${HOST}/A`].lastError).toContain('the dynamic DNS answer');
    // Not cached: the next cycle asks again.
    expect((await runMain(['update', '--ip', SENT], settings)).code).toBe(4);
    expect(server.hits).toBe(2);
  });

  it.each(['HOME.Example.com.', 'home'])(
    'the same name in another spelling (%s) and the address sent: updated',
    async (name) => {
      server = await startServer(json(name, SENT));
      const result = await runMain(['update', '--ip', SENT], env('json'));
      expect(result).toMatchObject({ code: 0, stdout: `${HOST} A ${SENT} updated\n` });
    },
  );

  it('with the "server" source (no address sent), the address the provider saw is what it holds', async () => {
    server = await startServer(json(HOST, '81.0.2.99'));
    const settings = env('json', { DDEDGE_IP_SOURCES: 'server' });
    const result = await runMain(['update'], settings);
    expect(result).toMatchObject({ code: 0, stdout: `${HOST} A 81.0.2.99 updated\n` });
  });

  it('a contradicting answer is no successful cycle: health stays unhealthy', async () => {
    server = await startServer(json(HOST, '6.6.6.6'));
    const settings = env('json');
    expect((await runMain(['update', '--ip', SENT], settings)).code).toBe(4);
    expect((await runMain(['health'], settings)).code).toBe(1);
  });
});
