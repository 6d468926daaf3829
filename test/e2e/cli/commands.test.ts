import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentEnv, zoneValue } from '../../helpers/agent-env.js';
import { baseEnv, runDist, runMain, startDist, tempDir, waitForOutput } from '../../helpers/cli.js';
import { startServer, type TestServer } from '../../helpers/servers.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox();
let echoes: TestServer[] = [];
afterEach(async () => {
  await Promise.all(echoes.map((e) => e.close()));
  echoes = [];
});
const echo = async (body: string) => {
  const server = await startServer(body);
  echoes.push(server);
  return server;
};

describe('ddedge ip', () => {
  it('prints the detected address, and with --json every source with its answer, error and time', async () => {
    const a = await echo('81.0.2.60');
    const b = await echo('81.0.2.60');
    const bad = await echo('10.0.0.1');
    const env = baseEnv({ DDEDGE_IP_SOURCES: `url:${a.url},url:${b.url},url:${bad.url}` });
    expect(await runDist(['ip'], env)).toMatchObject({ code: 0, stdout: '81.0.2.60\n' });
    const json = JSON.parse((await runMain(['ip', '--json'], env)).stdout);
    expect(json.addresses[0]).toMatchObject({ family: 'IPv4', address: '81.0.2.60', quorum: 2 });
    expect(json.addresses[0].sources).toHaveLength(3);
    expect(
      json.addresses[0].sources.find((s: { source: string }) => s.source.includes(String(new URL(bad.url).port))),
    ).toMatchObject({ address: '10.0.0.1', error: expect.stringMatching(/refused: private/) });
  });
  it('exits 6 when the address is unknown', async () => {
    const a = await echo('81.0.2.60');
    const b = await echo('81.0.2.61');
    const result = await runMain(['ip', '--ip-source', `url:${a.url}`, '--ip-source', `url:${b.url}`], baseEnv());
    expect(result.code).toBe(6);
  });
});

describe('ddedge status and health', () => {
  it('shows the cache per host, and health follows the last successful cycle', async () => {
    const env = agentEnv(sandbox);
    expect(await runDist(['health'], env)).toMatchObject({
      code: 1,
      stdout: expect.stringContaining('no successful cycle yet'),
    });
    await runMain(['update', '--ip', '81.0.2.15'], env);
    const status = await runDist(['status'], env);
    expect(status.stdout).toMatch(
      /^home\.example\.com A 81\.0\.2\.15 sent \S+ via dyndns\nlast successful cycle: \S+\n$/,
    );
    const json = JSON.parse((await runMain(['status', '--json'], env)).stdout);
    expect(json.records[0]).toMatchObject({ host: 'home.example.com', type: 'A', address: '81.0.2.15', via: 'dyndns' });
    expect(await runMain(['health'], env)).toMatchObject({ code: 0, stdout: expect.stringContaining('healthy') });
    const stale = JSON.parse((await runMain(['status', '--json'], env)).stdout);
    const file = join(env.DDEDGE_STATE_DIR!, 'state.json');
    writeFileSync(
      file,
      JSON.stringify({ version: 1, records: {}, lastSuccessAt: new Date(Date.now() - 20 * 60_000).toISOString() }),
    );
    expect((await runMain(['health'], env)).code).toBe(1);
    expect((await runMain(['health', '--max-age', '30m'], env)).code).toBe(0);
    expect((await runMain(['health', '--max-age', 'soon'], env)).code).toBe(2);
    expect(stale.lastSuccessAt).toEqual(expect.any(String));
  });
});

describe('help, version and usage errors', () => {
  it('--version prints the version', async () => {
    expect((await runDist(['--version'], baseEnv())).stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
  it('--help lists every command, every variable and every exit code', async () => {
    const { stdout, code } = await runDist(['--help'], baseEnv());
    expect(code).toBe(0);
    for (const word of [
      'update',
      'daemon',
      'ip',
      'status',
      'health',
      'sandbox',
      'DDEDGE_DYNDNS_KEY',
      'DDEDGE_IP_QUORUM',
      'credential dyndns-key',
      'ipify',
      'opendns',
    ])
      expect(stdout).toContain(word);
    for (let code = 0; code <= 7; code++) expect(stdout).toMatch(new RegExp(`^  ${code}  `, 'm'));
  });
  it('<command> --help lists its flags', async () => {
    const { stdout } = await runMain(['update', '--help'], baseEnv());
    for (const flag of ['--dry-run', '--force', '--json', '--ip-source', '--max-age', '--env-file'])
      expect(stdout).toContain(flag);
  });
  it('an unknown command is a usage error with the nearest names', async () => {
    expect(await runMain(['updte'], baseEnv())).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('did you mean update'),
    });
  });
  it('no command prints help and exits 2', async () => {
    expect(await runDist([], baseEnv())).toMatchObject({
      code: 2,
      stdout: expect.stringContaining('ddedge <command>'),
    });
  });
  it('a dotenv file in the working directory is read', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, '.env'),
      `DDEDGE_DYNDNS_URL=${sandbox.url}\nDDEDGE_DYNDNS_USER=demo-user\nDDEDGE_DYNDNS_KEY=demo-dyndns-key\nDDEDGE_HOSTS=home.example.com\nDDEDGE_STATE_DIR=${tempDir()}\n`,
    );
    expect(await runMain(['update', '--ip', '81.0.2.15'], baseEnv(), dir)).toMatchObject({
      code: 0,
      stdout: 'home.example.com A 81.0.2.15 updated\n',
    });
  });
});

describe('ddedge daemon', () => {
  it('runs a cycle at start, another on SIGUSR1, and exits 0 on SIGTERM', async () => {
    const env = agentEnv(sandbox, { DDEDGE_IP: '81.0.2.15', DDEDGE_INTERVAL: '1h' });
    const daemon = startDist(['daemon'], env);
    await waitForOutput(daemon, 'stderr', (t) => t.includes('set to 81.0.2.15'));
    expect(zoneValue(sandbox, 'home.example.com')).toBe('81.0.2.15');
    sandbox.model.services[0]!.dns[2]!.value = '192.0.2.99';
    // The forced cycle's result is logged: waited for, not slept on.
    const seen = waitForOutput(daemon, 'stderr', (t) => t.includes('SIGUSR1: cycle done: '));
    daemon.kill('SIGUSR1');
    // The cache says 81.0.2.15 was sent: a forced cycle still respects the cache.
    expect(await seen).toContain('SIGUSR1: cycle done: home.example.com A 81.0.2.15 unchanged; exit 0\n');
    expect(sandbox.calls.get('dyndns')).toBe(1);
    daemon.kill('SIGTERM');
    const result = await daemon.result;
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('daemon stopped');
  });

  it('stops calling the provider after rejected credentials', async () => {
    const env = agentEnv(sandbox, { DDEDGE_IP: '81.0.2.15', DDEDGE_INTERVAL: '30s', DDEDGE_DYNDNS_KEY: 'wrong-key' });
    const daemon = startDist(['daemon'], env);
    await waitForOutput(daemon, 'stderr', (t) => t.includes('credentials were rejected'));
    // The reload runs one cycle, refused again: its own log line, waited for, not a sleep.
    const refusedAgain = waitForOutput(
      daemon,
      'stderr',
      (t) => t.includes('SIGHUP') && t.includes('credentials were rejected: no more provider calls'),
    );
    daemon.kill('SIGHUP');
    await refusedAgain;
    const afterHup = sandbox.calls.get('dyndns');
    expect(afterHup).toBe(2);
    daemon.kill('SIGINT');
    expect((await daemon.result).code).toBe(0);
    expect(sandbox.calls.get('dyndns')).toBe(afterHup);
  });

  it('refuses to start with an invalid configuration (exit 2)', async () => {
    expect((await runMain(['daemon'], baseEnv({ DDEDGE_HOSTS: 'home.example.com' }))).code).toBe(2);
  });
});

describe('ddedge sandbox', () => {
  it('prints one JSON line once listening, serves both interfaces, and exits 0 on SIGTERM', async () => {
    const child = startDist(['sandbox', '--port', '0', '--json'], baseEnv());
    const line = await waitForOutput(child, 'stdout', (t) => t.includes('\n'));
    const info = JSON.parse(line);
    expect(Object.keys(info).sort()).toEqual([
      'apiPassword',
      'apiUrl',
      'apiUser',
      'dyndnsKey',
      'dyndnsUrl',
      'dyndnsUser',
    ]);
    const env = baseEnv({
      DDEDGE_DYNDNS_URL: info.dyndnsUrl,
      DDEDGE_DYNDNS_USER: info.dyndnsUser,
      DDEDGE_DYNDNS_KEY: info.dyndnsKey,
      DDEDGE_API_URL: info.apiUrl,
      DDEDGE_API_USER: info.apiUser,
      DDEDGE_API_PASSWORD: info.apiPassword,
      DDEDGE_STATE_DIR: tempDir(),
      DDEDGE_HOSTS: 'home.example.com',
    });
    expect((await runMain(['update', '--ip', '81.0.2.15'], env)).code).toBe(0);
    expect((await runMain(['update', '--ip', '81.0.2.16', '--via', 'api'], env)).code).toBe(0);
    const plain = await fetch(
      `${info.dyndnsUrl}/plain/?user=${info.dyndnsUser}&password=${info.dyndnsKey}&host=home.example.com&ip=81.0.2.17`,
    );
    expect(await plain.text()).toBe('OK\nUPDATE: 81.0.2.17\n');
    child.kill('SIGTERM');
    expect((await child.result).code).toBe(0);
  });

  it('keeps its state in --data across restarts', async () => {
    const data = join(tempDir(), 'sandbox.json');
    for (const ip of ['81.0.2.70', undefined]) {
      const child = startDist(['sandbox', '--port', '0', '--json', '--data', data], baseEnv());
      const info = JSON.parse(await waitForOutput(child, 'stdout', (t) => t.includes('\n')));
      const answer = await fetch(
        `${info.dyndnsUrl}/json/?user=${info.dyndnsUser}&password=${info.dyndnsKey}&host=home.example.com${ip ? `&ip=${ip}` : '&ip=81.0.2.70'}`,
      ).then((r) => r.json());
      expect(answer.host).toMatchObject({ value: '81.0.2.70', updated: Boolean(ip) });
      child.kill('SIGTERM');
      await child.result;
    }
  });
});

describe('systemd credentials', () => {
  it('a missing credential: exit 2, naming it and where it was looked for', async () => {
    const credentials = tempDir('ddedge-creds-');
    const env = baseEnv({
      CREDENTIALS_DIRECTORY: credentials,
      DDEDGE_DYNDNS_USER: 'demo-user',
      DDEDGE_HOSTS: 'home.example.com',
      DDEDGE_STATE_DIR: tempDir(),
    });
    const result = await runMain(['update', '--ip', '81.0.2.15'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`the dyndns-key credential, not found in $CREDENTIALS_DIRECTORY (${credentials})`);
  });

  it('reads the credentials of LoadCredential=ddedge:/etc/ddedge/credentials (named ddedge_<file>)', async () => {
    const credentials = tempDir('ddedge-creds-');
    writeFileSync(join(credentials, 'ddedge_dyndns-key'), 'demo-dyndns-key\n');
    const env = agentEnv(sandbox, { CREDENTIALS_DIRECTORY: credentials, DDEDGE_DYNDNS_KEY: undefined });
    delete env.DDEDGE_DYNDNS_KEY;
    expect(await runMain(['update', '--ip', '81.0.2.15'], env)).toMatchObject({
      code: 0,
      stdout: 'home.example.com A 81.0.2.15 updated\n',
    });
  });
});
