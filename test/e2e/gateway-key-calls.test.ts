// The gateway's hourly call budget is one pool: an attack had a key granted one TXT record toggle
// it until the pool was spent, and every other key was answered SERVFAIL for the rest of the hour,
// while /healthz said 200 with 0 calls left. Now a key may spend at most half of the hour's
// budget (`quota "KEY" calls N;` sets another share), and /healthz says 503 once fewer calls are
// left than the cheapest update takes. Budget 40 here; calls counted by the sandbox.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keygenText } from '../../src/gateway/keygen.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { baseEnv, startDist, tempDir, waitForOutput } from '../helpers/cli.js';
import { hasProgram } from '../helpers/pebble.js';

const TOOLS = hasProgram('nsupdate', 'bind9-dnsutils');
const BUDGET = 40;

let sandbox: Sandbox;
let gateway: ReturnType<typeof startDist>;
let port: number;
let url: string;
const secrets = new Map<string, string>();

function nsupdate(key: string, lines: string[]): Promise<{ code: number; out: string }> {
  const script = [`server 127.0.0.1 ${port}`, 'zone example.com', ...lines, 'send', ''].join('\n');
  return new Promise((resolve) => {
    const child = execFile('nsupdate', ['-t', '8', '-y', `hmac-sha256:${key}:${secrets.get(key)}`], { timeout: 20_000 }, (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }));
    child.stdin!.end(script);
  });
}

const get = async (path: string) => {
  const answer = await fetch(`${url}${path}`);
  return { status: answer.status, body: await answer.text() };
};

beforeAll(async () => {
  if (!TOOLS) return;
  sandbox = await startSandbox({});
  const dir = tempDir('ddedge-gwkeycalls-');
  let keysText = '';
  for (const name of ['narrow', 'other', 'heavy']) {
    const text = keygenText(name, 'hmac-sha256');
    secrets.set(name, /secret "([^"]+)"/.exec(text)![1]!);
    keysText += text;
  }
  keysText += 'grant "narrow" wildcard *.acme.example.com TXT;\ngrant "other" zonesub;\ngrant "heavy" zonesub;\nquota "heavy" calls 1000;\n';
  writeFileSync(join(dir, 'keys'), keysText, { mode: 0o600 });
  gateway = startDist(
    ['gateway', '--zone', 'example.com', '--keys', join(dir, 'keys'), '--dns-listen', '127.0.0.1:0', '--listen', '127.0.0.1:0', '--state-dir', join(dir, 'state'), '--refresh', '1h', '--max-calls-per-hour', String(BUDGET)],
    baseEnv({ DDEDGE_API_URL: sandbox.url, DDEDGE_API_USER: 'demo-user', DDEDGE_API_PASSWORD: 'demo-api-password' }),
  );
  const text = await waitForOutput(gateway, 'stderr', (t) => /answering DNS .* on 127\.0\.0\.1:\d+/.test(t), 60_000);
  port = Number(/on 127\.0\.0\.1:(\d+)/.exec(text)![1]);
  url = /serving \/healthz, \/metrics and \/status at (http:\/\/\S+?)\/$/m.exec(text)![1]!;
}, 90_000);
afterAll(async () => {
  gateway?.kill('SIGTERM');
  await sandbox?.close();
});

describe.skipIf(!TOOLS)("each key's share of the call budget", () => {
  it('a key toggling its one record spends at most half the budget; another key is still served', async () => {
    const answers: string[] = [];
    for (let i = 1; i <= 15; i++) {
      answers.push((await nsupdate('narrow', [`update add t.acme.example.com 60 TXT "${i}"`])).out.trim());
      answers.push((await nsupdate('narrow', ['update delete t.acme.example.com TXT'])).out.trim());
    }
    expect(answers.filter((a) => /REFUSED/.test(a)).length).toBeGreaterThan(0);
    expect(answers.every((a) => a === '' || /REFUSED/.test(a))).toBe(true);
    const calls = [...sandbox.calls.values()].reduce((n, c) => n + c, 0);
    // The reading at start, then at most the narrow key's half.
    expect(calls).toBeLessThanOrEqual(1 + BUDGET / 2);
    expect(await nsupdate('other', ['update add www7.example.com 60 A 192.0.2.7'])).toEqual({ code: 0, out: '' });
    expect((await get('/healthz')).status).toBe(200);
  });

  it('/healthz says 503 once the budget cannot pay for an update, though no call was refused', async () => {
    let failed = '';
    for (let i = 1; i <= 20 && !failed; i++) {
      const { out } = await nsupdate('heavy', [`update add h${i}.example.com 60 A 192.0.2.${i}`]);
      if (out) failed = out;
    }
    expect(failed).toMatch(/SERVFAIL/);
    const health = await get('/healthz');
    expect(health.status).toBe(503);
    expect(health.body).toMatch(/the budget of 40 provider calls an hour is spent until/);
  });
});
