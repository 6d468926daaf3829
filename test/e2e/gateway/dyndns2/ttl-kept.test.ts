// The dyndns2 door keeps a record's TTL as the provider holds it: a record with the provider's
// default keeps the default (no TTL sent), an explicit one (300 included) stays, a new record
// gets the default. So `zone export` after the door's updates, planned again, shows no change
// the user never made. curl against the built gateway in front of the sandbox; the export and
// plan through the built dist/ddedge.mjs. An RFC 2136 add names its TTL (nsupdate's), which the
// record then has explicitly, also where it had the provider's default.
import { execFile } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { withApi } from '../../../helpers/agent-env.js';
import { baseEnv, runDist, tempDir } from '../../../helpers/cli.js';
import { requireTool } from '../../../helpers/programs.js';
import { useGateway } from '../../../helpers/use-gateway.js';
import { useSandbox } from '../../../helpers/use-sandbox.js';

const sandbox = useSandbox({ per: 'file' });
const door = useGateway(() => {
  const dns = sandbox.model.services.find((s) => s.name === 'example.com')!.dns;
  dns.push({ entityID: '9001', name: 'three.example.com', type: 'A', ttl: '300', priority: '-', value: '192.0.2.3' });
  return {
    apiUrl: sandbox.url,
    door: {},
    keys: [{ name: 'router', rules: ['grant "router" zonesub A;'] }],
    // 192.0.2.20, the sandbox's address for home.example.com, is a documentation address.
    args: ['--allow-private-ip'],
  };
});
afterAll(async () => {
  expect(await door.stop()).toBe(0);
});

/** The TTL field of the sandbox's entry: `-` is the provider's default. */
const ttlOf = (name: string) =>
  sandbox.model.services
    .find((s) => s.name === 'example.com')!
    .dns.filter((e) => e.name === name && e.type === 'A')
    .map((e) => `${e.ttl} ${e.value}`);

function curl(url: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      'curl',
      ['-sS', '-u', `router:${door.secret('router')}`, url],
      { timeout: 30_000 },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
    ),
  );
}

const env = () =>
  baseEnv({ ...withApi(sandbox), DDEDGE_STATE_DIR: tempDir('ddedge-state-'), DDEDGE_SERVICE: 'example.com' });
const cwd = tempDir('ddedge-ttl-export-');
const ddedge = (args: string[]) => runDist(args, env(), cwd);

/** The changes `zone plan FILE` would make. */
async function planOf(file: string): Promise<unknown[]> {
  const plan = await ddedge(['zone', 'plan', file, '--json']);
  expect(plan.code, plan.stderr).toBe(0);
  return JSON.parse(plan.stdout).changes;
}

function nsupdate(lines: string[]): Promise<string> {
  const script = [`server 127.0.0.1 ${door.port}`, ...lines, 'send', ''].join('\n');
  return new Promise((resolve, reject) => {
    const child = execFile(
      'nsupdate',
      ['-t', '8', '-y', `hmac-sha256:router:${door.secret('router')}`],
      { timeout: 20_000 },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout + stderr)),
    );
    child.stdin!.end(script);
  });
}

describe.skipIf(!requireTool('nsupdate', 'bind9-dnsutils'))('the RFC 2136 door and the TTL an add names', () => {
  it("an add of TTL 300 where the record had the provider's default: the TTL is 300, explicitly", async () => {
    const dns = sandbox.model.services.find((s) => s.name === 'example.com')!.dns;
    dns.push({ entityID: '9002', name: 'named.example.com', type: 'A', ttl: '-', priority: '-', value: '192.0.2.5' });
    await nsupdate(['update delete named.example.com A', 'update add named.example.com 300 A 192.0.2.6']);
    expect(ttlOf('named.example.com')).toEqual(['300 192.0.2.6']);
  });
});

describe.skipIf(!requireTool('curl'))("the dyndns2 door and the provider's TTLs", () => {
  it('a record with the default TTL moved away and back through the door: the untouched export plans no change', async () => {
    expect(ttlOf('home.example.com')).toEqual(['- 192.0.2.20']);
    const exported = await ddedge(['zone', 'export', '--output', 'before.zone']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(await curl(`${door.dyndns2}/nic/update?hostname=home.example.com&myip=81.0.2.41`)).toBe('good 81.0.2.41\n');
    expect(ttlOf('home.example.com')).toEqual(['- 81.0.2.41']);
    expect(await curl(`${door.dyndns2}/nic/update?hostname=home.example.com&myip=192.0.2.20`)).toBe(
      'good 192.0.2.20\n',
    );
    expect(ttlOf('home.example.com')).toEqual(['- 192.0.2.20']);
    expect(await planOf('before.zone')).toEqual([]);
  });

  it('an explicit TTL (300) stays explicit, a new record gets the default; export, then plan: no change', async () => {
    const answer = await curl(`${door.dyndns2}/nic/update?hostname=three.example.com,new.example.com&myip=81.0.2.42`);
    expect(answer).toBe('good 81.0.2.42\ngood 81.0.2.42\n');
    expect(ttlOf('three.example.com')).toEqual(['300 81.0.2.42']);
    expect(ttlOf('new.example.com')).toEqual(['- 81.0.2.42']);
    const exported = await ddedge(['zone', 'export', '--output', 'after.zone']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(await planOf('after.zone')).toEqual([]);
  });
});
