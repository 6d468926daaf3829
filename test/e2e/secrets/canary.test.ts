// The canary: every key and password is one recognisable value, every scenario runs at
// debug level, and the value must appear nowhere a user or a log collector could see it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseFault } from '../../../src/sandbox/faults.js';
import { agentEnv, withApi } from '../../helpers/agent-env.js';
import { CANARY, runDist, runMain, tempDir } from '../../helpers/cli.js';
import { writeFileSync } from 'node:fs';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox();
beforeEach(async () => {
  sandbox.model.account.dyndnsKey = CANARY;
  sandbox.model.account.apiPassword = CANARY;
});

function expectNoCanary(texts: string[], stateDir: string) {
  for (const text of texts) {
    expect(text).not.toContain(CANARY);
    expect(text).not.toContain(encodeURIComponent(CANARY));
  }
  for (const file of readdirSync(stateDir, { recursive: true, encoding: 'utf8' })) {
    if (statSync(join(stateDir, file)).isFile())
      expect(readFileSync(join(stateDir, file), 'utf8')).not.toContain(CANARY);
  }
}

/**
 * These scenarios run the built file, where whatever Node itself prints (warnings, a crash)
 * is seen too; the others run main() in this process, the same code and output without a
 * process start each (each with fresh modules, so no secret is masked by an earlier run).
 */
const BUILT_FILE_SCENARIOS = new Set([
  'a successful update',
  'a dynamic DNS failure and the API fallback',
  'a timeout',
  'acme present',
  'acme with the password as a flag',
]);
const runScenario = (name: string, args: string[], env: Record<string, string>) =>
  (BUILT_FILE_SCENARIOS.has(name) ? runDist : runMain)(args, env);

describe('the canary secret never leaks', () => {
  const scenarios: [string, string[], Record<string, string>, string?][] = [
    ['a successful update', ['update', '--ip', '81.0.2.15'], {}],
    [
      'a successful update with --json, log-format json',
      ['update', '--ip', '81.0.2.15', '--json', '--log-format', 'json'],
      {},
    ],
    [
      'a rejected dynamic DNS key, then the API',
      ['update', '--ip', '81.0.2.15'],
      { DDEDGE_DYNDNS_KEY: `${CANARY}-wrong` },
    ],
    ['a dynamic DNS failure and the API fallback', ['update', '--ip', '81.0.2.15'], {}, 'dyndns=reset'],
    ['an API failure', ['update', '--ip', '81.0.2.15', '--via', 'api', '--service', 'nope.example.org'], {}],
    ['zone export', ['zone', 'export', '--service', 'example.com', '--log-level', 'debug'], {}],
    ['zone export of a service the provider does not have', ['zone', 'export', '--service', 'nope.example.org'], {}],
    ['a malformed answer', ['update', '--ip', '81.0.2.15', '--via', 'dyndns'], {}, 'dyndns=garbage'],
    ['a timeout', ['update', '--ip', '81.0.2.15', '--via', 'dyndns', '--timeout', '300ms'], {}, 'dyndns=hang:3000'],
    ['a configuration error', ['update', '--ip', 'nope'], {}],
    ['status', ['status', '--json'], {}],
    [
      'ip with a DNS source that fails',
      ['ip', '--json', '--log-level', 'debug'],
      { DDEDGE_IP_SOURCES: 'dns:nope.example.com@127.0.0.1:9' },
    ],
  ];
  it.each(scenarios)('%s', async (name, args, extra, faultText) => {
    if (faultText) sandbox.faults.push(parseFault(faultText));
    const env = agentEnv(sandbox, { ...withApi(sandbox), DDEDGE_LOG_LEVEL: 'debug', ...extra });
    // A state written by a cycle that used the secret, then the scenario.
    await runMain(['update', '--ip', '81.0.2.1', '--force'], { ...env, DDEDGE_DYNDNS_KEY: CANARY });
    const result = await runScenario(name, args, env);
    // Something was printed, and update scenarios really ran at debug level.
    expect(result.stdout + result.stderr).not.toBe('');
    if (args[0] === 'update' && result.code !== 2) expect(result.stderr).toMatch(/debug: |"level":"debug"/);
    expectNoCanary([result.stdout, result.stderr], env.DDEDGE_STATE_DIR!);
  });

  const acmeScenarios: [string, string[]][] = [
    ['acme present', ['acme', 'present', '_acme-challenge.example.com.', 'tok-1', '--no-wait']],
    [
      'acme present --json, log-format json',
      ['acme', 'present', '_acme-challenge.example.com.', 'tok-1', '--no-wait', '--json', '--log-format', 'json'],
    ],
    ['acme cleanup', ['acme', 'cleanup', '_acme-challenge.example.com.', 'tok-1']],
    ['acme refused (no such service)', ['acme', 'present', '_acme-challenge.example.org.', 'tok-1', '--no-wait']],
    ['acme certbot-auth outside certbot', ['acme', 'certbot-auth']],
    [
      'acme with the password as a flag',
      ['acme', 'present', '_acme-challenge.example.com.', 'tok-2', '--no-wait', '--api-password', CANARY],
    ],
    [
      'acme present, propagation timeout',
      [
        'acme',
        'present',
        '_acme-challenge.example.com.',
        'tok-3',
        '--dns-server',
        '127.0.0.1:9',
        '--propagation-timeout',
        '1s',
        '--timeout',
        '300ms',
      ],
    ],
  ];
  it.each(acmeScenarios)('%s', async (name, args) => {
    const env = agentEnv(sandbox, { ...withApi(sandbox), DDEDGE_LOG_LEVEL: 'debug' });
    const result = await runScenario(name, args, env);
    expect(result.stdout + result.stderr).not.toBe('');
    expectNoCanary([result.stdout, result.stderr], env.DDEDGE_STATE_DIR!);
  });

  it('a secret passed as a flag is masked too, and secrets read from files', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'key'), `${CANARY}\n`);
    const env = agentEnv(sandbox, {
      DDEDGE_DYNDNS_KEY: undefined,
      DDEDGE_DYNDNS_KEY_FILE: join(dir, 'key'),
      DDEDGE_LOG_LEVEL: 'debug',
    });
    delete env.DDEDGE_DYNDNS_KEY;
    const fromFile = await runDist(['update', '--ip', '81.0.2.15'], env);
    expect(fromFile.code).toBe(0);
    const env2 = agentEnv(sandbox, { DDEDGE_LOG_LEVEL: 'debug' });
    delete env2.DDEDGE_DYNDNS_KEY;
    const fromFlag = await runDist(['update', '--ip', '81.0.2.16', '--dyndns-key', CANARY], env2);
    expect(fromFlag.code).toBe(0);
    expect(fromFlag.stderr).toContain('password=***');
    expectNoCanary([fromFile.stdout, fromFile.stderr, fromFlag.stdout, fromFlag.stderr], env.DDEDGE_STATE_DIR!);
  });
});

describe('the canary secret never leaks from the daemon HTTP endpoint (--listen)', () => {
  it('/healthz, /metrics, /status and errors show no secret, after failures that carry URLs', async () => {
    const { startDist, waitForOutput } = await import('../../helpers/cli.js');
    sandbox.faults.push(parseFault('dyndns=reset'));
    const env = agentEnv(sandbox, {
      ...withApi(sandbox),
      DDEDGE_LOG_LEVEL: 'debug',
      DDEDGE_INTERVAL: '1h',
      DDEDGE_PING_URL: `http://127.0.0.1:9/ping/${CANARY}`,
      DDEDGE_HOSTS: 'home.example.com,host.unknown-zone.org',
    });
    const daemon = startDist(['daemon', '--ip', '81.0.2.15', '--listen', '127.0.0.1:0'], env);
    try {
      // "retrying in": the first cycle, which failed, has ended and its state is written.
      const log = await waitForOutput(
        daemon,
        'stderr',
        (t) => /at (http:\S+)\/\n/.test(t) && /host\.unknown-zone\.org A:/.test(t) && /retrying in \d+s/.test(t),
      );
      const url = /at (http:\S+)\/\n/.exec(log)![1]!;
      expect(
        ((await (await fetch(`${url}/status`)).json()) as { lastCycleAt: string | null }).lastCycleAt,
      ).not.toBeNull();
      const answers = await Promise.all(
        ['/healthz', '/metrics', '/status', `/${CANARY}`].map(async (path) => (await fetch(`${url}${path}`)).text()),
      );
      expect(answers[2]).toMatch(/lastError/);
      daemon.kill('SIGTERM');
      const result = await daemon.result;
      expectNoCanary([...answers, result.stdout, result.stderr], env.DDEDGE_STATE_DIR!);
    } finally {
      daemon.kill('SIGTERM');
    }
  });
});
