// docs/gateway-dyndns2.md "Routers and NAS boxes": the blocks run as written (the try-it block in a network
// of its own; the clients' blocks with the door's 8245, and https://gateway.example.com:8245, the test
// door's), and the
// FRITZ!Box and Synology fields replayed as those boxes send them: placeholders replaced by the
// values as they are, each URL of the FRITZ!Box's space-separated list called with its
// User-Agent. The clients (curl, Debian's ddclient and inadyn) are the real programs.
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST, tempDir } from '../../helpers/cli.js';
import { useGateway, zoneLines } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';
import { requireTool } from '../../helpers/programs.js';
import { readmeRecipe, REPO, runRecipe, withPorts } from '../../helpers/readme-recipes.js';

const README = readFileSync(resolve(REPO, 'docs/gateway-dyndns2.md'), 'utf8');
const TOOLS =
  requireTool('curl') &&
  requireTool('ddclient') &&
  requireTool('inadyn') &&
  requireTool('unshare', 'util-linux') &&
  requireTool('ip', 'iproute2');

/** The `text` block after `<!-- router: NAME -->`, as `field: value` pairs. */
function routerFields(name: string): Record<string, string> {
  const marker = `<!-- router: ${name} -->\n`;
  const at = README.indexOf(marker);
  if (at < 0) throw new Error(`docs/gateway-dyndns2.md has no block marked ${marker.trim()}`);
  const block = /^```text\n([\s\S]*?)^```$/m.exec(README.slice(at + marker.length))!;
  return Object.fromEntries(
    block[1]!
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
  );
}

function curl(args: string[]): Promise<string> {
  return new Promise((done, fail) =>
    execFile('curl', ['-sS', ...args], { timeout: 30_000 }, (error, stdout, stderr) =>
      error ? fail(new Error(`${error.message}\n${stderr}`)) : done(stdout),
    ),
  );
}

describe.skipIf(!TOOLS)('docs/gateway-dyndns2.md: routers and NAS boxes through the dyndns2 door', () => {
  const sandbox = useSandbox({ per: 'file' });
  const door = useGateway(() => ({
    apiUrl: sandbox.url,
    door: {},
    keys: [
      {
        name: 'router',
        rules: ['grant "router" name home.example.com A AAAA;', 'grant "router" subdomain lan.example.com AAAA;'],
      },
      { name: 'nas', rules: ['grant "nas" name nas.example.com A;'] },
    ],
    args: ['--prefix-host', 'pc.lan.example.com=::1e2:3ff:fe4a:5b6c'],
  }));
  let env: Record<string, string>;
  let dir: string;
  const ports = () => ({ 8245: Number(new URL(door.dyndns2).port) });
  beforeAll(async () => {
    dir = tempDir('ddedge-readme-dyndns2-');
    // `ddedge` as the page's readers have it installed, for inadyn's checkip-command.
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'bin', 'ddedge'), `#!/bin/sh\nexec "${process.execPath}" "${DIST}" "$@"\n`);
    chmodSync(join(dir, 'bin', 'ddedge'), 0o755);
    env = { PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`, HOME: dir, ROUTER_SECRET: door.secret('router') };
  });
  afterAll(async () => {
    expect(await door.stop()).toBe(0);
  });

  it('the try-it block: sandbox, key, gateway with the door, good, nochg, nohost, badauth, and the log saying why', async () => {
    const here = tempDir('ddedge-readme-dyndns2-try-');
    symlinkSync(join(REPO, 'dist'), join(here, 'dist'));
    const run = await runRecipe(readmeRecipe('dyndns2-sandbox'), {
      cwd: here,
      env: { PATH: process.env.PATH ?? '', HOME: here },
      timeoutMs: 120_000,
      ownNetwork: {},
    });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/^good 81\.0\.2\.1$/m);
    expect(run.output).toMatch(/^nochg 81\.0\.2\.1$/m);
    expect(run.output).toMatch(/^nohost$/m);
    expect(run.output).toMatch(/^badauth$/m);
    expect(run.output).toMatch(/key router changed example\.com: update home\.example\.com A/);
    expect(run.output).toMatch(/nohost: dyndns2: the key router may not change www\.example\.com A/);
  });

  it('the try-it block, its door port taken by another program: it stops and shows the gateway saying why', async () => {
    const here = tempDir('ddedge-readme-dyndns2-taken-');
    symlinkSync(join(REPO, 'dist'), join(here, 'dist'));
    const run = await runRecipe(readmeRecipe('dyndns2-sandbox'), {
      cwd: here,
      env: { PATH: process.env.PATH ?? '', HOME: here },
      timeoutMs: 120_000,
      ownNetwork: { taken: [8245] },
    });
    // Not killed at the test's bound (code null): the block itself stopped.
    expect(run.code, run.output).not.toBeNull();
    expect(run.code).not.toBe(0);
    expect(run.output).toMatch(/--dyndns2-listen 127\.0\.0\.1:8245: the address is already in use/);
    expect(run.output).not.toMatch(/^(good|nochg|nohost|badauth)/m);
  });

  it('curl with -u and with user:pass@', async () => {
    const run = await runRecipe(withPorts(readmeRecipe('dyndns2-curl'), ports()), { cwd: dir, env, timeoutMs: 60_000 });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toBe('good 81.0.2.2\ngood 81.0.2.3\n');
    expect(zoneLines(sandbox, 'home.example.com')).toContain('home.example.com A 81.0.2.3');
  });

  it('ddclient', async () => {
    const run = await runRecipe(withPorts(readmeRecipe('dyndns2-ddclient'), ports()), {
      cwd: dir,
      env,
      timeoutMs: 60_000,
    });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/SUCCESS:\s+updating home\.example\.com: good: IP address set to 81\.0\.2\.4/);
    expect(zoneLines(sandbox, 'home.example.com')).toContain('home.example.com A 81.0.2.4');
  });

  it('inadyn (custom provider), its address from `ddedge ip`; run again it meets nochg and stays content', async () => {
    const script = withPorts(readmeRecipe('dyndns2-inadyn'), ports());
    const first = await runRecipe(script, { cwd: dir, env: { ...env, DDEDGE_IP: '81.0.2.5' }, timeoutMs: 60_000 });
    expect(first.code, first.output).toBe(0);
    expect(zoneLines(sandbox, 'home.example.com')).toContain('home.example.com A 81.0.2.5');
    const calls = await door.providerCalls();
    const again = await runRecipe(script.replace('--cache-dir', '--force --cache-dir'), {
      cwd: dir,
      env: { ...env, DDEDGE_IP: '81.0.2.5' },
      timeoutMs: 60_000,
    });
    expect(again.code, again.output).toBe(0);
    expect(await door.providerCalls()).toBe(calls);
    expect((await door.doorAnswers()).nochg).toBeGreaterThanOrEqual(1);
  });

  it('FRITZ!Box: its two URLs, placeholders replaced unescaped, its User-Agent: A, AAAA and the host behind it', async () => {
    const fields = routerFields('fritzbox');
    const values: Record<string, string> = {
      '<domain>': fields.Domainname!,
      '<username>': fields.Benutzername!,
      '<pass>': door.secret('router'),
      '<ipaddr>': '81.0.2.6',
      '<ip6addr>': '2a01:4f8:c0c:6::1',
      '<ip6lanprefix>': '2a01:4f8:c0c:6::/64',
      '<dualstack>': '1',
    };
    const urls = fields['Update-URL']!.split(' ').map((u) =>
      u.replaceAll('https://gateway.example.com:8245', door.dyndns2).replace(/<[a-z0-9]+>/g, (p) => values[p]!),
    );
    expect(urls).toHaveLength(2);
    for (const url of urls) expect(await curl(['--globoff', '-A', 'Fritz!Box DDNS/1.0.1', url])).toMatch(/^good /);
    expect(zoneLines(sandbox, 'home.example.com')).toEqual([
      'home.example.com A 81.0.2.6',
      'home.example.com AAAA 2a01:4f8:c0c:6::1',
    ]);
    expect(zoneLines(sandbox, 'lan.example.com')).toEqual(['pc.lan.example.com AAAA 2a01:4f8:c0c:6:1e2:3ff:fe4a:5b6c']);
  });

  it('Synology DSM: its query URL with __HOSTNAME__, __MYIP__, __USERNAME__, __PASSWORD__ replaced', async () => {
    const url = routerFields('synology')
      ['Query URL']!.replace('https://gateway.example.com:8245', door.dyndns2)
      .replace('__HOSTNAME__', 'nas.example.com')
      .replace('__MYIP__', '81.0.2.7')
      .replace('__USERNAME__', 'nas')
      .replace('__PASSWORD__', door.secret('nas'));
    expect(await curl(['--globoff', url])).toBe('good 81.0.2.7\n');
    expect(zoneLines(sandbox, 'nas.example.com')).toEqual(['nas.example.com A 81.0.2.7']);
  });
});
