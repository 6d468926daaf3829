// Settings a careless or hostile configuration gets wrong, and the sandbox's own: one server
// named several times is no quorum; a success in the future is no health; a string setting
// needs a value; the sandbox refuses at start what it cannot serve.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentEnv } from '../../helpers/agent-env.js';
import { baseEnv, runDist, runMain, startDist, tempDir, waitForOutput } from '../../helpers/cli.js';
import { startServer, type TestServer } from '../../helpers/servers.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

let servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});
const track = <T extends { close(): Promise<void> }>(s: T): T => {
  servers.push(s);
  return s;
};

describe('one server counted several times is no quorum', () => {
  const sandbox = useSandbox();

  it.each([
    ['the same url: twice', (u: string) => [`url:${u}`, `url:${u}`]],
    ['localhost and 127.0.0.1', (u: string) => [`url:${u}`, `url:${u.replace('127.0.0.1', 'localhost')}`]],
    ['a ?x spelling and another path', (u: string) => [`url:${u}?x`, `url:${u}other/path`]],
    [
      'three spellings for a quorum of 3',
      (u: string) => [`url:${u}`, `url:${u}?a`, `url:${u.replace('127.0.0.1', 'localhost')}#b`],
    ],
  ])('%s: a configuration error (exit 2), nothing asked or sent', async (_name, spell) => {
    // The liar: one echo server reporting an address that nothing else confirms.
    const liar = track(await startServer('6.6.6.6\n'));
    const sources = spell(liar.url);
    const args = ['update', ...sources.flatMap((s) => ['--ip-source', s]), '--quorum', String(sources.length)];
    const result = await runDist(args, agentEnv(sandbox));
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/ask the same server \(this machine, port \d+\); a quorum needs different servers/);
    expect(liar.hits).toBe(0);
    expect([...sandbox.calls.values()].length).toBe(0);
  });

  it('with enough different servers configured, a server named twice counts once: its two answers make no quorum (exit 6)', async () => {
    const liar = track(await startServer('6.6.6.6\n'));
    const honest = track(await startServer('81.0.2.40\n'));
    const sources = [`url:${liar.url}`, `url:${liar.url.replace('127.0.0.1', 'localhost')}?x`, `url:${honest.url}`];
    const result = await runMain(
      ['update', ...sources.flatMap((s) => ['--ip-source', s]), '--quorum', '2'],
      agentEnv(sandbox),
    );
    expect(result.code, result.stderr).toBe(6);
    expect(result.stdout).toBe('home.example.com A - failed\n');
    expect([...sandbox.calls.values()].length).toBe(0);
  });

  it('two different local servers still make a quorum', async () => {
    const a = track(await startServer('81.0.2.40\n'));
    const b = track(await startServer('81.0.2.40'));
    const result = await runMain(
      ['update', '--ip-source', `url:${a.url}`, '--ip-source', `url:${b.url.replace('127.0.0.1', 'localhost')}`],
      agentEnv(sandbox),
    );
    expect(result).toMatchObject({ code: 0, stdout: 'home.example.com A 81.0.2.40 updated\n' });
  });
});

describe('health with a last success in the future is invalid state, not healthy', () => {
  const stateWith = (lastSuccessAt: string) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'state.json'), JSON.stringify({ version: 1, records: {}, lastSuccessAt }));
    return baseEnv({ DDEDGE_STATE_DIR: dir });
  };
  it.each([
    ['in 72 years', new Date(Date.now() + 2_275_576_618_000).toISOString()],
    ['in an hour', new Date(Date.now() + 3_600_000).toISOString()],
    ['not a time', 'yesterday-ish'],
  ])('a last success %s: unhealthy (exit 1), saying the state is invalid', async (_name, at) => {
    const env = stateWith(at);
    const text = await runMain(['health'], env);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^unhealthy: invalid state: the last success time .* (is in the future|is not a time)/);
    const json = await runMain(['health', '--json'], env);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ healthy: false, ageMs: null, invalidState: expect.any(String) });
  });

  it('a last success a few seconds ago is still healthy', async () => {
    const result = await runMain(['health'], stateWith(new Date(Date.now() - 5000).toISOString()));
    expect(result).toMatchObject({ code: 0, stdout: expect.stringMatching(/^healthy: last successful cycle \ds ago/) });
  });
});

describe('--api-password without a value is refused, never sent as "true"', () => {
  it.each([
    [['api', 'account', 'info', '--api-password']],
    [['api', 'account', 'info', '--api-password', '--api-user', 'u']],
  ])('%j: exit 2, no request', async (args) => {
    const api: TestServer = track(await startServer('{"success":true,"errorCode":0,"responseData":{}}'));
    const result = await runMain(
      args,
      baseEnv({ DDEDGE_API_URL: api.url, DDEDGE_API_USER: 'u', DDEDGE_STATE_DIR: tempDir() }),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--api-password( \(argument \d+\))? needs a value/);
    expect(api.hits).toBe(0);
  });
});

describe('the sandbox refuses at start what it cannot serve (exit 2, one line)', () => {
  it('accepts the documented --fault dyndns=500x2: two 500s, then the real answer', async () => {
    const child = startDist(['sandbox', '--port', '0', '--json', '--fault', 'dyndns=500x2'], baseEnv());
    try {
      const line = await waitForOutput(child, 'stdout', (t) => t.includes('\n'));
      const { dyndnsUrl, dyndnsUser, dyndnsKey } = JSON.parse(line);
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push(
          (
            await fetch(
              `${dyndnsUrl}/json/?user=${dyndnsUser}&password=${dyndnsKey}&host=home.example.com&ip=81.0.2.15`,
            )
          ).status,
        );
      expect(statuses).toEqual([500, 500, 200]);
    } finally {
      child.kill('SIGTERM');
      await child.result;
    }
  });

  const dir = () => tempDir('ddedge-sandbox-data-');
  it.each([
    ['a delay a timer cannot wait', () => ['--fault', 'dyndns=slow:3000000000'], /a delay is at most 2147483647 ms/],
    [
      'a --data file that is not JSON',
      () => {
        const f = join(dir(), 'd.json');
        writeFileSync(f, '{not json');
        return ['--data', f];
      },
      /is not JSON/,
    ],
    [
      'a --data file holding null',
      () => {
        const f = join(dir(), 'd.json');
        writeFileSync(f, 'null');
        return ['--data', f];
      },
      /does not hold sandbox data/,
    ],
    [
      'a --data file holding another shape',
      () => {
        const f = join(dir(), 'd.json');
        writeFileSync(f, '{"services":{}}');
        return ['--data', f];
      },
      /does not hold sandbox data/,
    ],
    [
      'a --data path in a missing directory',
      () => ['--data', join(dir(), 'missing', 'd.json')],
      /its directory .*missing does not exist/,
    ],
    [
      'a directory as --data',
      () => {
        const d = join(dir(), 'd.json');
        mkdirSync(d);
        return ['--data', d];
      },
      /cannot read .*EISDIR/,
    ],
  ])('%s', async (_name, args, message) => {
    const result = await runDist(['sandbox', '--port', '0', ...args()], baseEnv());
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
