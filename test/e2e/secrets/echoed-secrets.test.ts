// Servers that repeat the request back in any spelling, put the key in their error texts, in
// long bodies, or write control characters and huge messages. No secret, in any spelling,
// reaches stdout, stderr, the state or `status`; no answer forges a log line or drives the
// terminal.
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

const KEY = 'Kc4n~ary!Key(9)';
const PASSWORD = 'my secret+pw/"x';

/** Every spelling of a secret a server or serializer may give back. */
function spellings(secret: string): string[] {
  const form = new URLSearchParams({ s: secret }).toString().slice(2);
  const strict = [...secret]
    .map((c) => (/[A-Za-z0-9]/.test(c) ? c : `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');
  const lowerHex = (t: string) => t.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
  return [
    secret,
    encodeURIComponent(secret),
    form,
    lowerHex(form),
    strict,
    lowerHex(strict),
    JSON.stringify(secret).slice(1, -1),
    JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/'),
  ];
}

const leaks = (text: string, secret: string): string[] => spellings(secret).filter((s) => text.includes(s));

const dyndnsEnv = (url: string, extra: Record<string, string> = {}) =>
  baseEnv({
    DDEDGE_DYNDNS_URL: url,
    DDEDGE_DYNDNS_USER: 'u',
    DDEDGE_DYNDNS_KEY: KEY,
    DDEDGE_STATE_DIR: tempDir(),
    DDEDGE_HOSTS: 'home.example.com',
    DDEDGE_TIMEOUT: '3s',
    ...extra,
  });

async function everythingShown(
  env: Record<string, string>,
  args: string[],
): Promise<{ code: number | null; text: string; stderr: string }> {
  const result = await runDist(args, env);
  const status = await runMain(['status'], env);
  const statusJson = await runMain(['status', '--json'], env);
  let state = '';
  try {
    state = readFileSync(join(env.DDEDGE_STATE_DIR!, 'state.json'), 'utf8');
  } catch {}
  return {
    code: result.code,
    stderr: result.stderr,
    text: [result.stdout, result.stderr, status.stdout, status.stderr, statusJson.stdout, state].join('\n'),
  };
}

describe('secrets repeated back in encoded forms are masked', () => {
  it('a dynamic DNS server repeating the query (key percent-encoded, every character) and JSON-escaped', async () => {
    server = await startServer((req, res) => {
      const query = (req.url ?? '').split('?')[1] ?? '';
      const strict = [...KEY]
        .map((c) => (/[A-Za-z0-9]/.test(c) ? c : `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
        .join('');
      const lowerHex = strict.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
      res.end(
        JSON.stringify({
          success: false,
          user: 'u',
          host: { name: 'home.example.com' },
          messages: [`bad request ${query}`, `key was ${strict} or ${lowerHex}`, `raw ${JSON.stringify(KEY)}`],
        }),
      );
    });
    const env = dyndnsEnv(server.url, { DDEDGE_LOG_LEVEL: 'debug' });
    const shown = await everythingShown(env, ['update', '--ip', '81.0.2.15', '--json']);
    expect(shown.code).toBe(7);
    expect(shown.text).toContain('bad request');
    expect(leaks(shown.text, KEY)).toEqual([]);
    expect(shown.text).not.toContain('Kc4n');
  });

  it('a registrar API repeating the form body (password form-encoded: + for space, %2B)', async () => {
    server = await startServer((_req, res, body) => {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          success: false,
          errorCode: 1004,
          errorCodeMsg: `invalid password in ${body}`,
          messages: [`you sent ${JSON.stringify(PASSWORD)}`],
        }),
      );
    });
    const env = baseEnv({
      DDEDGE_API_URL: server.url,
      DDEDGE_API_USER: 'u',
      DDEDGE_API_PASSWORD: PASSWORD,
      DDEDGE_STATE_DIR: tempDir(),
      DDEDGE_HOSTS: 'home.example.com',
      DDEDGE_VIA: 'api',
      DDEDGE_LOG_LEVEL: 'debug',
    });
    const shown = await everythingShown(env, ['update', '--ip', '81.0.2.15', '--json']);
    expect(shown.code).toBe(3);
    expect(shown.text).toContain('invalid password in');
    expect(leaks(shown.text, PASSWORD)).toEqual([]);
    expect(shown.text).not.toMatch(/my\+secret|my%20secret|my secret/);
    const api = await runDist(['api', 'account', 'info', '--raw'], env);
    expect(leaks(api.stdout + api.stderr, PASSWORD)).toEqual([]);
  });
});

describe('the state file and status never hold the provider text unredacted', () => {
  it('a refusal quoting password=<key> is stored and shown as ***', async () => {
    server = await startServer((_req, res) => res.end(`ERROR\nrejected: password=${KEY} user=u\n`));
    const env = dyndnsEnv(server.url, { DDEDGE_DYNDNS_FORMAT: 'plain' });
    const shown = await everythingShown(env, ['update', '--ip', '81.0.2.15']);
    expect(shown.code).toBe(7);
    const state = JSON.parse(readFileSync(join(env.DDEDGE_STATE_DIR!, 'state.json'), 'utf8'));
    expect(state.records['home.example.com/A'].lastError).toContain('password=***');
    expect(leaks(shown.text, KEY)).toEqual([]);
  });
});

describe('the debug body is redacted before it is cut', () => {
  it.each([186, 190, 195])('a key starting at character %i of the answer is not shown in part', async (at) => {
    const plainKey = 'Zq81xCanaryKey7';
    server = await startServer((_req, res) => {
      const prefix = '{"success":true,"messages":["';
      res.end(`${prefix}${'x'.repeat(at - prefix.length)}${plainKey} tail"]}`);
    });
    const env = dyndnsEnv(server.url, { DDEDGE_DYNDNS_KEY: plainKey, DDEDGE_LOG_LEVEL: 'debug' });
    const result = await runDist(['update', '--ip', '81.0.2.15'], env);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/dynamic DNS answer/);
    expect(result.stderr).not.toContain(plainKey.slice(0, 4));
  });
});

describe('every spelling of the ping URL is masked; hints show ***', () => {
  it('HTTP://, an explicit port and a trailing slash: warn lines never show it', async () => {
    server = await startServer((_req, res) => res.writeHead(500).end('down'));
    const port = new URL(server.url).port;
    const dyndns = await startServer('{"success":true,"messages":[]}');
    try {
      for (const spelling of [
        `HTTP://127.0.0.1:${port}/ping-3f9a2c7e/`,
        `http://127.0.0.1:${port}/ping-3f9a2c7e`,
        `http://LOCALHOST:${port}/ping-3f9a2c7e//`,
      ]) {
        const env = dyndnsEnv(dyndns.url, { DDEDGE_PING_URL: spelling, DDEDGE_LOG_LEVEL: 'debug' });
        const result = await runDist(['update', '--ip', '81.0.2.15'], env);
        expect(result.code).toBe(0);
        expect(result.stderr).toMatch(/warn: the heartbeat monitor answered HTTP 500 to \*\*\*/);
        expect(result.stderr).not.toContain('ping-3f9a2c7e');
      }
    } finally {
      await dyndns.close();
    }
  });

  it.each([
    'http://hc-ping.example.com/ping-3f9a2c7e',
    'HTTP://hc-ping.example.com:80/ping-3f9a2c7e/',
    'http://HC-PING.example.com/ping-3f9a2c7e?x=1',
  ])('the exit-2 hint for %s shows ***', async (url) => {
    const result = await runMain(
      ['update', '--ip', '81.0.2.15'],
      dyndnsEnv('http://127.0.0.1:9/', { DDEDGE_PING_URL: url }),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /DDEDGE_PING_URL: http:\/\/ is allowed only for loopback hosts .*; use https:\/\/\*\*\*/,
    );
    expect(result.stderr).not.toContain('ping-3f9a2c7e');
  });
});

describe('provider text cannot forge log lines, reach the terminal raw, or make a huge line', () => {
  it('newlines, ANSI escapes and a 500 KB message from a dynamic DNS refusal', async () => {
    const forged = 'nope\ninfo: home.example.com A set to 6.6.6.6 via dyndns\r\n\u001b[31mred\u001b[0m \u2028x';
    server = await startServer((_req, res) =>
      res.end(
        JSON.stringify({
          success: false,
          user: 'u',
          host: { name: 'home.example.com' },
          messages: [forged, 'y'.repeat(500_000)],
        }),
      ),
    );
    const env = dyndnsEnv(server.url);
    const shown = await everythingShown(env, ['update', '--ip', '81.0.2.15']);
    expect(shown.code).toBe(7);
    const lines = shown.stderr.split('\n');
    expect(lines.some((l) => l.startsWith('info: home.example.com A set to 6.6.6.6'))).toBe(false);
    expect(shown.text).not.toContain('\u001b');
    expect(shown.text).not.toContain('\u2028');
    expect(shown.stderr).toContain('\\ninfo: home.example.com A set to 6.6.6.6');
    for (const line of lines) expect(line.length).toBeLessThan(5000);
    expect(readFileSync(join(env.DDEDGE_STATE_DIR!, 'state.json'), 'utf8').length).toBeLessThan(10_000);
  });

  it('the same from a registrar API error answer', async () => {
    server = await startServer((_req, res) =>
      res.end(
        JSON.stringify({
          success: false,
          errorCode: 4001,
          errorCodeMsg: 'x\nerror: forged\u001b[2J',
          messages: ['z'.repeat(500_000)],
        }),
      ),
    );
    const env = baseEnv({
      DDEDGE_API_URL: server.url,
      DDEDGE_API_USER: 'u',
      DDEDGE_API_PASSWORD: 'api-pw-1234',
      DDEDGE_STATE_DIR: tempDir(),
      DDEDGE_HOSTS: 'home.example.com',
      DDEDGE_VIA: 'api',
    });
    const result = await runDist(['update', '--ip', '81.0.2.15'], env);
    expect(result.code).toBe(7);
    expect(result.stderr.split('\n').some((l) => l.startsWith('error: forged'))).toBe(false);
    expect(result.stderr).not.toContain('\u001b');
    for (const line of result.stderr.split('\n')) expect(line.length).toBeLessThan(5000);
  });
});
