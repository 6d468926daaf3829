// The file:<path> address source, through the built command: a router's script or a test
// writes the WAN address to a file, and ddedge reads the first address of the wanted family
// in it, with the same public-address rules as every other source.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentEnv, providerCalls, zoneValue } from '../../helpers/agent-env.js';
import { baseEnv, runDist, runMain, tempDir } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const addressFile = (text: string) => {
  const file = join(tempDir('ddedge-file-source-'), 'wan-address');
  writeFileSync(file, text);
  return file;
};

describe('file:<path> source', () => {
  it('reads the first address of the wanted family, whatever else the file holds', async () => {
    const file = addressFile(
      '# written by the router at 03:00\nwan0: inet6 2a01:4f8::1 inet 81.0.2.44 peer 81.0.2.1\n',
    );
    expect(await runDist(['ip', '--ip-source', `file:${file}`], baseEnv())).toMatchObject({
      code: 0,
      stdout: '81.0.2.44\n',
      stderr: '',
    });
    const v6 = await runMain(
      ['ip', '--ipv6', '--ip-source', `file:${file}`, '--ip6-source', `file:${file}`, '--json'],
      baseEnv(),
    );
    const json = JSON.parse(v6.stdout);
    expect(json.addresses.map((a: { address: string }) => a.address)).toEqual(['81.0.2.44', '2a01:4f8::1']);
    expect(json.addresses[0].sources[0]).toMatchObject({ source: `file:${file}`, address: '81.0.2.44' });
  });

  it('refuses a private address as the other sources do, unless --allow-private-ip (exit 6 with the reason)', async () => {
    const file = addressFile('192.168.1.10\n');
    const refused = await runMain(['ip', '--ip-source', `file:${file}`], baseEnv());
    expect(refused.code).toBe(6);
    expect(refused.stderr).toMatch(/refused 192\.168\.1\.10 from file:.*private/);
    expect(await runMain(['ip', '--ip-source', `file:${file}`, '--allow-private-ip'], baseEnv())).toMatchObject({
      code: 0,
      stdout: '192.168.1.10\n',
    });
  });

  it('names a missing file, an empty one, and one too big for an address, with exit 6', async () => {
    const missing = join(tempDir(), 'nope');
    const gone = await runMain(['ip', '--ip-source', `file:${missing}`], baseEnv());
    expect(gone.code).toBe(6);
    expect(gone.stderr).toMatch(/file:\S+\/nope:\s+cannot read \S+\/nope: ENOENT/);
    const empty = await runMain(['ip', '--ip-source', `file:${addressFile('no address here\n')}`], baseEnv());
    expect(empty.code).toBe(6);
    expect(empty.stderr).toMatch(/no IPv4 address in /);
    const big = await runMain(
      ['ip', '--ip-source', `file:${addressFile(`81.0.2.44\n${'x'.repeat(70_000)}`)}`],
      baseEnv(),
    );
    expect(big.code).toBe(6);
    expect(big.stderr).toMatch(/over the 65536-byte limit/);
  });

  it('`ip` says why no address was learnt, not "nothing was sent" (it never sends); an update still says so', async () => {
    const missing = join(tempDir(), 'nope');
    const ip = await runDist(['ip', '--ip-source', `file:${missing}`], baseEnv());
    expect(ip.code).toBe(6);
    expect(ip.stderr).toMatch(/no IPv4 source answered usefully \(file:\S+\/nope: cannot read/);
    expect(ip.stderr).not.toContain('nothing was sent');
    const json = await runDist(['ip', '--json', '--ip-source', `file:${missing}`], baseEnv());
    expect(JSON.parse(json.stdout).addresses[0].error).toMatch(/^no IPv4 source answered usefully \(.*\)$/);
    const update = await runMain(
      ['update', '--host', 'home.example.com', '--ip-source', `file:${missing}`],
      baseEnv({ DDEDGE_DYNDNS_USER: 'u', DDEDGE_DYNDNS_KEY: 'k-123456', DDEDGE_STATE_DIR: tempDir() }),
    );
    expect(update.code).toBe(6);
    expect(update.stderr).toContain('nothing was sent');
  });

  it('named twice is one server: the error names it once, as given', async () => {
    const file = addressFile('81.0.2.44\n');
    const run = await runDist(
      ['ip', '--ip-source', `file:${file}`, '--ip-source', `file:${file}`, '--quorum', '2'],
      baseEnv(),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`ask the same server (file:${file})`);
    expect(run.stderr).not.toContain('file:file:');
  });

  it('is a usage error without a path (exit 2)', async () => {
    const result = await runMain(['ip', '--ip-source', 'file:'], baseEnv());
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--ip-source: "file:" names no file/);
  });

  describe('in a cycle', () => {
    const sandbox = useSandbox();

    it('sends what the file says, then nothing while it says the same', async () => {
      const file = addressFile('81.0.2.45\n');
      const env = agentEnv(sandbox, { DDEDGE_IP_SOURCES: `file:${file}` });
      expect(await runMain(['update'], env)).toMatchObject({
        code: 0,
        stdout: 'home.example.com A 81.0.2.45 updated\n',
      });
      expect(zoneValue(sandbox, 'home.example.com')).toBe('81.0.2.45');
      const calls = providerCalls(sandbox);
      expect(await runMain(['update'], env)).toMatchObject({
        code: 0,
        stdout: 'home.example.com A 81.0.2.45 unchanged\n',
      });
      expect(providerCalls(sandbox)).toBe(calls);
    });
  });
});
