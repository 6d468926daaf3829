// The dyndns2 door's settings and budget: a budget that cannot carry an update answers `abuse`
// (and `nochg` still answers, costing nothing), a door flag without --dyndns2-listen, half a TLS pair, a bad
// --prefix-host or a port in use stop the start with exit 2 and say why.
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANG_BOUND_MS, tempDir } from '../../../helpers/cli.js';
import { spawnGateway, useGateway, writeKeysFile, zoneLines } from '../../../helpers/use-gateway.js';
import { useSandbox } from '../../../helpers/use-sandbox.js';
import { tlsFiles } from '../../../helpers/servers.js';

describe('the dyndns2 door and the call budget', () => {
  const sandbox = useSandbox({ per: 'file' });
  // One call reads the zone at start; an update needs a read and its write with its undoing set aside: 4 leaves too few.
  // The key may spend all of it (a key's default share is half: gateway/key-calls.test.ts).
  const door = useGateway(() => ({
    apiUrl: sandbox.url,
    door: {},
    keys: [{ name: 'router', rules: ['grant "router" name home.example.com A;', 'quota "router" calls 4;'] }],
    args: ['--max-calls-per-hour', '4', '--refresh', '1h', '--allow-private-ip'],
  }));
  afterAll(async () => {
    expect(await door.stop()).toBe(0);
  });

  it('answers abuse when the budget cannot carry the update, changing nothing; nochg still answers', async () => {
    const headers = { authorization: `Basic ${Buffer.from(`router:${door.secret('router')}`).toString('base64')}` };
    const reads = await door.providerCalls('service/dnslist');
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${door.dyndns2}/nic/update?hostname=home.example.com&myip=81.0.2.95`, { headers });
      expect(await res.text()).toBe('abuse\n');
    }
    // Weighed before the reading: an update the budget cannot carry spends none of it.
    expect(await door.providerCalls('service/dnslist')).toBe(reads);
    expect(zoneLines(sandbox, 'home.example.com')).toEqual(['home.example.com A 192.0.2.20']);
    await door.logged(/abuse: dyndns2: .*budget of 4 provider calls/);
    expect((await door.doorAnswers()).abuse).toBe(3);
    // The sandbox's demo address (a documentation one, let in by --allow-private-ip) is already so: no call needed.
    expect(
      await (await fetch(`${door.dyndns2}/nic/update?hostname=home.example.com&myip=192.0.2.20`, { headers })).text(),
    ).toBe('nochg 192.0.2.20\n');
  });
});

describe("the dyndns2 door's settings", () => {
  let dir: string;
  let keys: string;
  beforeAll(() => {
    dir = tempDir('ddedge-dyndns2-flags-');
    keys = writeKeysFile([{ name: 'router', rules: [] }], join(dir, 'gateway.keys')).file;
  });
  /** A provider never reached: every run below stops at its settings. */
  const gateway = (args: string[], env: Record<string, string> = {}) => start(args, env).result;
  const start = (args: string[], env: Record<string, string> = {}) =>
    spawnGateway({
      apiUrl: 'http://127.0.0.1:9',
      zone: 'example.com',
      keysFile: keys,
      stateDir: join(dir, 'state'),
      primaryName: null,
      args,
      env: { DDEDGE_API_USER: 'u', DDEDGE_API_PASSWORD: 'p', ...env },
    });

  it.each([
    [
      ['--dyndns2-listen', '127.0.0.1:0', '--dyndns2-cert', '/nonexistent.pem'],
      /--dyndns2-cert and --dyndns2-key go together/,
    ],
    [
      ['--dyndns2-listen', '127.0.0.1:0', '--dyndns2-cert', '/nonexistent.pem', '--dyndns2-key', '/nonexistent.key'],
      /--dyndns2-cert: cannot read "\/nonexistent\.pem": ENOENT/,
    ],
    [
      ['--dyndns2-listen', 'example.com:8245'],
      /--dyndns2-listen: "example\.com:8245": "example\.com" is not an IP address/,
    ],
    // Only the flags given are named, by the names they were given.
    [
      ['--prefix-host', 'pc.lan.example.com=::5'],
      /^ddedge: --prefix-host is for the HTTP door: give --http-listen ADDR:PORT too$/m,
    ],
    [['--http-cert', '/x.pem'], /^ddedge: --http-cert is for the HTTP door: give --http-listen ADDR:PORT too$/m],
    [
      ['--dyndns2-cert', '/x.pem', '--dyndns2-key', '/x.key'],
      /^ddedge: --dyndns2-cert and --dyndns2-key are for the HTTP door: give --dyndns2-listen ADDR:PORT too$/m,
    ],
    [['--http-listen', '127.0.0.1:0', '--http-cert', '/nonexistent.pem'], /--http-cert and --http-key go together/],
    [
      ['--http-listen', '127.0.0.1:0', '--dyndns2-listen', '127.0.0.1:1'],
      /--http-listen and --dyndns2-listen are one setting by two names, given two different values \(--http-listen and --dyndns2-listen\): give one/,
    ],
    [
      ['--http-listen', '127.0.0.1:0', '--http-cert', tlsFiles().cert, '--dyndns2-cert', '/other.pem'],
      /--http-cert and --dyndns2-cert are one setting by two names/,
    ],
    [
      ['--dyndns2-listen', '127.0.0.1:0', '--prefix-host', 'pc.lan.example.com'],
      /--prefix-host: "pc\.lan\.example\.com" is not NAME=<IPv6 interface identifier>/,
    ],
    [
      ['--dyndns2-listen', '127.0.0.1:0', '--prefix-host', 'pc.lan.example.com=2001:db8::5'],
      /--prefix-host pc\.lan\.example\.com: .*overlaps the \/64 prefix/,
    ],
  ])('%j is exit 2', async (args, message) => {
    const run = await gateway(args);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it('reads the general names from the environment too (DDEDGE_GATEWAY_HTTP_DOOR_*), and a clash between names', async () => {
    const run = await gateway([], {
      DDEDGE_GATEWAY_HTTP_DOOR_LISTEN: '127.0.0.1:0',
      DDEDGE_GATEWAY_HTTP_DOOR_KEY: '/nonexistent.key',
      DDEDGE_GATEWAY_DYNDNS2_LISTEN: '127.0.0.1:5',
    });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/--http-cert and --http-key go together/);
    expect(run.stderr).toMatch(
      /--http-listen and --dyndns2-listen are one setting by two names, given two different values \(DDEDGE_GATEWAY_HTTP_DOOR_LISTEN and DDEDGE_GATEWAY_DYNDNS2_LISTEN\)/,
    );
  });

  it('reads the same settings from the environment (DDEDGE_GATEWAY_DYNDNS2_*, DDEDGE_GATEWAY_PREFIX_HOSTS)', async () => {
    const run = await gateway([], {
      DDEDGE_GATEWAY_DYNDNS2_LISTEN: '127.0.0.1:0,example.com:1',
      DDEDGE_GATEWAY_DYNDNS2_CERT: '/nonexistent.pem',
      DDEDGE_GATEWAY_PREFIX_HOSTS: 'pc.lan.example.com=::5,bad',
    });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/"example\.com:1": "example\.com" is not an IP address/);
    expect(run.stderr).toMatch(/--dyndns2-cert and --dyndns2-key go together/);
    expect(run.stderr).toMatch(/--prefix-host: "bad" is not NAME=/);
  });

  it(
    'a FIFO (or a directory) as the key or certificate is exit 2 at once, naming what it is, never a wait for a writer',
    async () => {
      const fifo = join(dir, 'door.key');
      execFileSync('mkfifo', ['-m', '600', fifo]);
      for (const [flag, path] of [
        ['--dyndns2-key', fifo],
        ['--dyndns2-cert', dir],
      ] as const) {
        const pair: [string, string] = flag === '--dyndns2-key' ? [tlsFiles().cert, path] : [path, tlsFiles().key];
        const child = start(['--dyndns2-listen', '127.0.0.1:0', '--dyndns2-cert', pair[0], '--dyndns2-key', pair[1]]);
        let timer: NodeJS.Timeout | undefined;
        const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), HANG_BOUND_MS)));
        const run = await Promise.race([child.result, hung]);
        clearTimeout(timer);
        // SIGKILL: a process blocked in an open never runs its SIGTERM handler.
        if (run === 'hung') child.kill('SIGKILL');
        expect(run).not.toBe('hung');
        const { code, stderr } = run as { code: number | null; stderr: string };
        expect(code, stderr).toBe(2);
        expect(stderr).toMatch(
          new RegExp(
            `${flag}: ".*${flag === '--dyndns2-key' ? 'door\\.key' : ''}" is a (FIFO|directory), not a regular file`,
          ),
        );
      }
    },
    3 * HANG_BOUND_MS,
  );

  it('a certificate that is not one, or a port in use, is exit 2 naming the flag (once the zone is read)', async () => {
    const bad = join(dir, 'bad.pem');
    writeFileSync(bad, 'not a certificate');
    const run = await gateway([
      '--dyndns2-listen',
      '127.0.0.1:0',
      '--dyndns2-cert',
      bad,
      '--dyndns2-key',
      tlsFiles().key,
    ]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/--dyndns2-cert: ".*bad\.pem" holds no PEM certificate/);
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const door = await startDoorOn(`127.0.0.1:${(taken.address() as { port: number }).port}`);
      expect(door.code, door.stderr).toBe(2);
      expect(door.stderr).toMatch(/--dyndns2-listen 127\.0\.0\.1:\d+: the address is already in use/);
    } finally {
      taken.close();
    }
  });
});

/** The gateway in front of the sandbox, with its door on `listen`; returns how it ended. */
async function startDoorOn(listen: string): Promise<{ code: number | null; stderr: string }> {
  const { startSandbox } = await import('../../../../src/sandbox/server.js');
  const sandbox = await startSandbox({});
  try {
    const dir = tempDir('ddedge-dyndns2-port-');
    const { file: keys } = writeKeysFile([{ name: 'router', rules: [] }], join(dir, 'gateway.keys'));
    const run = await spawnGateway({
      apiUrl: sandbox.url,
      zone: 'example.com',
      keysFile: keys,
      stateDir: join(dir, 'state'),
      primaryName: null,
      args: ['--dyndns2-listen', listen],
    }).result;
    return { code: run.code, stderr: run.stderr };
  } finally {
    await sandbox.close();
  }
}
