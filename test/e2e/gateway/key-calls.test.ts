// The gateway's hourly call budget is one pool: an attack had a key granted one TXT record toggle
// it until the pool was spent, and every other key was answered SERVFAIL for the rest of the hour,
// while /healthz said 200 with 0 calls left. Now a key may spend at most half of the hour's
// budget (`quota "KEY" calls N;` sets another share), and /healthz says 503 once fewer calls are
// left than the cheapest update takes. Budget 40 here; calls counted by the sandbox.
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { requireTool } from '../../helpers/programs.js';
import { useGateway } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const TOOLS = requireTool('nsupdate', 'bind9-dnsutils');
const BUDGET = 40;

const sandbox = useSandbox({ per: 'file' });
const gateway = useGateway(() =>
  TOOLS
    ? {
        apiUrl: sandbox.url,
        primaryName: null,
        args: ['--listen', '127.0.0.1:0', '--refresh', '1h', '--max-calls-per-hour', String(BUDGET)],
        keys: [
          { name: 'narrow', rules: ['grant "narrow" wildcard *.acme.example.com TXT;'] },
          { name: 'other', rules: ['grant "other" zonesub;'] },
          { name: 'heavy', rules: ['grant "heavy" zonesub;', 'quota "heavy" calls 1000;'] },
        ],
      }
    : undefined,
);

function nsupdate(key: string, lines: string[]): Promise<{ code: number; out: string }> {
  const script = [`server 127.0.0.1 ${gateway.port}`, 'zone example.com', ...lines, 'send', ''].join('\n');
  return new Promise((resolve) => {
    const child = execFile(
      'nsupdate',
      ['-t', '8', '-y', gateway.nsupdateKey(key)],
      { timeout: 20_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
    child.stdin!.end(script);
  });
}

const get = async (path: string) => {
  const answer = await fetch(`${gateway.endpoint}${path}`);
  return { status: answer.status, body: await answer.text() };
};

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
