// What the operator sees when a client is turned away. nsupdate, knsupdate and certbot send no
// EDNS on updates, so the Extended DNS Error never reaches them: a trial as a new user found
// REFUSED and BADKEY left no trace but a metric. The gateway's log names each refusal (client,
// key, zone, code, why; for BADKEY the cause the wire keeps vague), a flood is cut at a bound,
// the DNS port already in use is said in words, a mistyped --zone is answered with the zones
// the account holds, and the start and stop lines say pid and end.
import { execFile } from 'node:child_process';
import net from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { waitForOutput } from '../../helpers/cli.js';
import { startHoldingProxy } from '../../helpers/holding-proxy.js';
import { requireTool } from '../../helpers/programs.js';
import { spawnGateway, useGateway } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const TOOLS = requireTool('nsupdate', 'bind9-dnsutils');

const sandbox = useSandbox({ port: 0, per: 'file' });
/** No --primary-name: the start says what the SOA will name. */
const gateway = useGateway(() =>
  TOOLS
    ? {
        apiUrl: sandbox.url,
        primaryName: null,
        keys: [{ name: 'acme.example.com', rules: ['grant "acme.example.com" wildcard *.example.com TXT;'] }],
      }
    : undefined,
);
let dir: string;
let keys: string;
let port: number;
let secret: string;
beforeAll(() => {
  if (!TOOLS) return;
  ({ dir, keysFile: keys, port } = gateway);
  secret = gateway.secret('acme.example.com');
});
const stderr = () => gateway.stderr();

function nsupdate(auth: string, lines: string[]): Promise<string> {
  const script = [`server 127.0.0.1 ${port}`, ...lines, 'send', ''].join('\n');
  return new Promise((resolve) => {
    const child = execFile('nsupdate', ['-t', '8', '-y', auth], { timeout: 20_000 }, (_error, stdout, err) =>
      resolve(stdout + err),
    );
    child.stdin!.end(script);
  });
}
/** Waits until the gateway's log has a line matching `pattern`; that line. */
async function logged(pattern: RegExp): Promise<string> {
  await gateway.logged(pattern);
  return (
    stderr()
      .split('\n')
      .find((l) => pattern.test(l)) ?? stderr()
  );
}

describe.skipIf(!TOOLS)('the gateway logs why it turned a client away', () => {
  it('says its pid at start', () => {
    expect(stderr()).toMatch(new RegExp(`pid ${gateway.child.pid} \\(SIGHUP reloads the keys file\\)`));
  });

  it('warns when the SOA would name it by a bare host name (no --primary-name given)', () => {
    // The machine's own name decides which way it goes: both are checked where they occur.
    if (hostname().includes('.')) expect(stderr()).not.toMatch(/set --primary-name/);
    else
      expect(stderr()).toMatch(
        new RegExp(
          `the SOA and NS name this gateway "${hostname().toLowerCase()}" .*set --primary-name to a name that resolves to this gateway`,
        ),
      );
  });

  it("an update outside the key's grant: the client sees REFUSED, the log says which key, from where, and why", async () => {
    const out = await nsupdate(`hmac-sha256:acme.example.com:${secret}`, [
      'update add www2.example.com 60 A 192.0.2.7',
    ]);
    expect(out).toMatch(/REFUSED/);
    const line = await logged(
      /gateway: update zone example\.com, key acme\.example\.com, from 127\.0\.0\.1: REFUSED: /,
    );
    expect(line).toMatch(/www2\.example\.com/);
    expect(stderr()).not.toContain(secret);
  });

  it('an unsigned update is logged NOTAUTH by name, not as a number', async () => {
    const script = [
      `server 127.0.0.1 ${port}`,
      'zone example.com',
      'update add unsigned.example.com 60 A 192.0.2.8',
      'send',
      '',
    ].join('\n');
    await new Promise((resolve) => execFile('nsupdate', ['-t', '8'], { timeout: 20_000 }, resolve).stdin!.end(script));
    expect(await logged(/update zone example\.com, unsigned, from 127\.0\.0\.1: NOTAUTH: /)).not.toMatch(/RCODE9/);
  });

  it('a refused zone transfer is logged with its reason (dig says only "Transfer failed")', async () => {
    await new Promise((resolve) =>
      execFile(
        'dig',
        ['-p', String(port), '@127.0.0.1', '+tries=1', '+time=5', 'example.com', 'AXFR'],
        { timeout: 20_000 },
        resolve,
      ),
    );
    expect(
      await logged(
        /gateway: transfer zone example\.com, unsigned, from 127\.0\.0\.1: REFUSED: zone transfers need a TSIG key/,
      ),
    ).toBeTruthy();
    await new Promise((resolve) =>
      execFile(
        'dig',
        [
          '-p',
          String(port),
          '@127.0.0.1',
          '+tries=1',
          '+time=5',
          '-y',
          `hmac-sha256:acme.example.com:${secret}`,
          'example.com',
          'AXFR',
        ],
        { timeout: 20_000 },
        resolve,
      ),
    );
    expect(
      await logged(/gateway: transfer zone example\.com, key acme\.example\.com, from 127\.0\.0\.1: REFUSED: /),
    ).toBeTruthy();
    expect(stderr()).not.toContain(secret);
  });

  it('a key name misspelt, and the right key with another algorithm: BADKEY, with the cause in the log only', async () => {
    await nsupdate(`hmac-sha256:acme.exmple.com:${secret}`, [
      'zone example.com',
      'update add _acme-challenge.example.com 60 TXT "x"',
    ]);
    expect(
      await logged(
        /key acme\.exmple\.com, from 127\.0\.0\.1: NOTAUTH\/BADKEY: no key of that name in the keys file \(1 key loaded\)/,
      ),
    ).toBeTruthy();
    await nsupdate(`hmac-md5:acme.example.com:${secret}`, [
      'zone example.com',
      'update add _acme-challenge.example.com 60 TXT "x"',
    ]);
    expect(
      await logged(
        /NOTAUTH\/BADKEY: the keys file gives key acme\.example\.com hmac-sha256; the message was signed with hmac-md5/,
      ),
    ).toMatch(/hmac-md5/);
    expect(stderr()).not.toContain(secret);
  });

  it('the DNS port already in use is said in words (exit 2)', async () => {
    const busy = net.createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
    const taken = (busy.address() as net.AddressInfo).port;
    try {
      const result = await spawnGateway({
        apiUrl: sandbox.url,
        zone: 'example.com',
        keysFile: keys,
        port: taken,
        stateDir: join(dir, 'state2'),
        primaryName: null,
      }).result;
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        new RegExp(
          `--dns-listen 127\\.0\\.0\\.1:${taken}: the address is already in use \\(another program, or another ddedge, listens there\\); choose another port`,
        ),
      );
    } finally {
      busy.close();
    }
  });

  it('a --zone the account does not hold (a typo) is exit 2, naming the hosting services it does hold', async () => {
    const result = await spawnGateway({
      apiUrl: sandbox.url,
      zone: 'exmaple.com',
      keysFile: keys,
      stateDir: join(dir, 'state3'),
      primaryName: null,
    }).result;
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /--zone exmaple\.com: cannot read it from the provider: .*; the account's hosting services: .*\bexample\.com\b/,
    );
  });

  it('credentials the provider rejects are exit 3 at start, as for every command, and the password is not shown', async () => {
    const result = await spawnGateway({
      apiUrl: sandbox.url,
      zone: 'example.com',
      keysFile: keys,
      stateDir: join(dir, 'state4'),
      primaryName: null,
      env: { DDEDGE_API_PASSWORD: 'WRONG-CANARY-pw' },
    }).result;
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/--zone example\.com: cannot read it from the provider: /);
    expect(result.stderr).not.toContain('WRONG-CANARY-pw');
  });

  it('a SIGHUP while it starts (a reload right after a start) does not end it', async () => {
    // Its first read of the zone is held at a proxy, and the SIGHUP sent while it waits for it.
    const proxy = await startHoldingProxy(sandbox.url);
    const read = proxy.hold('service/dnslist');
    const early = spawnGateway({
      apiUrl: proxy.url,
      zone: 'example.com',
      keysFile: keys,
      stateDir: join(dir, 'state4'),
      primaryName: null,
    });
    try {
      let output = '';
      early.stderr!.on('data', (d) => (output += d));
      await read.arrived;
      expect(output).not.toMatch(/answering DNS/);
      early.kill('SIGHUP');
      // Node's default for SIGHUP would end it here; it must go on to answer, and reload later.
      await waitForOutput(early, 'stderr', () => /SIGHUP while starting/.test(output));
      read.release();
      await waitForOutput(early, 'stderr', () => /answering DNS/.test(output));
      early.kill('SIGHUP');
      await waitForOutput(early, 'stderr', () => /keys file reloaded/.test(output));
      early.kill('SIGTERM');
      expect((await early.result).code).toBe(0);
    } finally {
      early.kill('SIGKILL');
      await proxy.close();
    }
  });

  it('says it stopped on SIGTERM', async () => {
    expect(await gateway.stop()).toBe(0);
    expect(stderr()).toMatch(/gateway: stopped/);
  });
});
