// A second real dyndns2 client: Debian's inadyn, its `custom` provider (ddns-server, ddns-path
// with %h and %i, user and password sent by basic auth) pointed at the gateway's door, over
// HTTPS with the test CA (ca-trust-file): it sets A, refreshes it (forced: nochg, no provider
// call), and sets AAAA when it has an IPv6 address to send. inadyn's built-in dyndns2 provider
// (default@dyndns.org) cannot be pointed elsewhere (inadyn 2.10 refuses ddns-server there), so
// the recipe of docs/gateway-dyndns2.md and this test use `custom`.
import { execFile } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../helpers/cli.js';
import { useGateway, zoneLines } from '../../../helpers/use-gateway.js';
import { useSandbox } from '../../../helpers/use-sandbox.js';
import { requireTool } from '../../../helpers/programs.js';
import { tlsFiles } from '../../../helpers/servers.js';

const INADYN = requireTool('inadyn');

describe.skipIf(!INADYN)("inadyn (custom provider) against the gateway's door over HTTPS", () => {
  const sandbox = useSandbox({ per: 'file' });
  const door = useGateway(() => ({
    apiUrl: sandbox.url,
    door: { tls: true },
    keys: [{ name: 'router', rules: ['grant "router" name home.example.com A AAAA;'] }],
  }));
  afterAll(async () => {
    expect(await door.stop()).toBe(0);
  });

  async function inadyn(address: string, force = false): Promise<{ code: number | null; output: string }> {
    const dir = tempDir('ddedge-inadyn-');
    const conf = join(dir, 'inadyn.conf');
    writeFileSync(
      conf,
      [
        `ca-trust-file = ${tlsFiles().ca}`,
        ...(address.includes(':') ? ['allow-ipv6 = true'] : []),
        'custom ddedge {',
        '    ssl = true',
        '    username = router',
        `    password = "${door.secret('router')}"`,
        `    ddns-server = ${new URL(door.dyndns2).host.replace('127.0.0.1', 'localhost')}`,
        '    ddns-path = "/nic/update?hostname=%h&myip=%i"',
        '    hostname = home.example.com',
        `    checkip-command = "echo ${address}"`,
        '}',
        '',
      ].join('\n'),
    );
    chmodSync(conf, 0o600);
    return new Promise((resolve) =>
      execFile(
        'inadyn',
        [
          '--once',
          ...(force ? ['--force'] : []),
          '--foreground',
          '--no-pidfile',
          '-f',
          conf,
          '--cache-dir',
          join(dir, 'cache'),
          '-l',
          'info',
        ],
        { timeout: 30_000 },
        (error, stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
      ),
    );
  }

  it('sets A, then refreshes it with no provider call', async () => {
    const set = await inadyn('81.0.2.90');
    expect(set.code, set.output).toBe(0);
    expect(set.output).toMatch(/Successful alias table update for home\.example\.com/);
    expect(zoneLines(sandbox, 'home.example.com')).toEqual(['home.example.com A 81.0.2.90']);
    const calls = await door.providerCalls();
    const again = await inadyn('81.0.2.90', true);
    expect(again.code, again.output).toBe(0);
    expect(await door.providerCalls()).toBe(calls);
  });

  it('sets AAAA when it sends an IPv6 address', async () => {
    const run = await inadyn('2a01:4f8:c0c:90::1');
    expect(run.code, run.output).toBe(0);
    expect(zoneLines(sandbox, 'home.example.com')).toEqual([
      'home.example.com A 81.0.2.90',
      'home.example.com AAAA 2a01:4f8:c0c:90::1',
    ]);
  });
});
