// NSD and Knot DNS as secondaries of the gateway, each started by docs/gateway-clients.md's recipe
// (<!-- recipe: nsd-secondary -->, <!-- recipe: knot-secondary -->) run as written with free ports,
// after the page's key block (<!-- recipe: gateway-key-secondaries -->): unprivileged, on
// 127.0.0.1, everything in the test's folder. Each must load the zone by a TSIG-signed transfer
// (the gateway refuses an unsigned one), answer every name and type the gateway holds with the
// same records, and, told by NOTIFY (the SOA's refresh is an hour, far beyond the wait), serve an
// update's new serial and record, and a delete, within seconds.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST, tempDir } from '../../helpers/cli.js';
import { dig } from '../../helpers/named.js';
import { freePort, requireTool } from '../../helpers/programs.js';
import { readmeRecipe, runRecipe, withPorts } from '../../helpers/readme-recipes.js';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';
import { waitUntil } from '../../helpers/wait.js';

const TOOLS =
  requireTool('nsd') &&
  requireTool('nsd-checkconf', 'nsd') &&
  requireTool('nsd-control', 'nsd') &&
  requireTool('knotd', 'knot') &&
  requireTool('knotc', 'knot') &&
  requireTool('dig', 'bind9-dnsutils') &&
  requireTool('kdig', 'knot-dnsutils') &&
  requireTool('nsupdate', 'bind9-dnsutils');

const ZONE = 'example.com';

interface Secondary {
  name: 'NSD' | 'Knot';
  recipe: string;
  port: number;
  output: string;
  stop(): Promise<void>;
  /** The serial its control program says it serves. */
  status(): string;
}

const sandbox = useSandbox({ per: 'file' });
let dir: string;
let gateway: GatewayProcess;
const secondaries: Secondary[] = [];

/** The page's recipe in its own process group, in the foreground as a reader runs it, until stop(). */
function startSecondary(name: Secondary['name'], recipe: string, port: number): Secondary {
  const script = withPorts(readmeRecipe(recipe), { 5354: gateway.port, 5355: port });
  const child = spawn('bash', ['-eu', '-c', script], { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const secondary: Secondary = {
    name,
    recipe,
    port,
    output: '',
    stop: async () => {
      const group = (signal: NodeJS.Signals) => {
        try {
          process.kill(-child.pid!, signal);
        } catch {
          // already gone
        }
      };
      group('SIGTERM');
      const timer = setTimeout(() => group('SIGKILL'), 10_000);
      await closed;
      clearTimeout(timer);
    },
    status: () =>
      name === 'NSD'
        ? execFileSync('nsd-control', ['-c', 'nsd/nsd.conf', 'zonestatus', ZONE], { cwd: dir, encoding: 'utf8' })
        : execFileSync('knotc', ['-c', 'knot/knot.conf', 'zone-status', ZONE], { cwd: dir, encoding: 'utf8' }),
  };
  child.stdout!.on('data', (d) => (secondary.output += d));
  child.stderr!.on('data', (d) => (secondary.output += d));
  return secondary;
}

const serialOf = (answer: string): number | undefined => {
  const soa = /\sIN\s+SOA\s+\S+\s+\S+\s+(\d+)\s/.exec(answer);
  return soa ? Number(soa[1]) : undefined;
};

/** Waits (bounded by a hang) until the secondary serves `serial` with AA; fails with its log otherwise. */
async function serves(secondary: Secondary, serial: number): Promise<void> {
  let answer = '';
  try {
    await waitUntil(
      async () => {
        answer = await dig(secondary.port, [ZONE, 'SOA']);
        return /flags: qr aa/.test(answer) && serialOf(answer) === serial;
      },
      `${secondary.name} serving serial ${serial}`,
      { everyMs: 50 },
    );
  } catch (error) {
    throw new Error(
      `${(error as Error).message}; last answer:\n${answer}\n${secondary.name}'s log:\n${secondary.output}`,
    );
  }
}

function nsupdate(lines: string[]): Promise<{ code: number; out: string }> {
  const script = [`server 127.0.0.1 ${gateway.port}`, `zone ${ZONE}`, ...lines, 'send', ''].join('\n');
  return new Promise((resolve) => {
    const child = execFile('nsupdate', ['-t', '8', '-k', join(dir, 'admin.key')], { timeout: 20_000 }, (e, o, er) =>
      resolve({ code: e ? 1 : 0, out: o + er }),
    );
    child.stdin!.end(script);
  });
}

/** The gateway's zone by a transfer signed with the xfr key: its RRsets, `owner TYPE` to their sorted lines. */
async function gatewayZone(): Promise<Map<string, string[]>> {
  const secret = /secret "([^"]+)"/.exec(readFileSync(join(dir, 'xfr.key'), 'utf8'))![1]!;
  const text = await new Promise<string>((resolve) =>
    execFile(
      'dig',
      ['@127.0.0.1', '-p', String(gateway.port), '-y', `hmac-sha256:xfr:${secret}`, ZONE, 'AXFR', '+noall', '+answer'],
      { timeout: 20_000 },
      (_e, stdout, stderr) => resolve(stdout + stderr),
    ),
  );
  const sets = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 5 || line.startsWith(';')) continue;
    const key = `${fields[0]} ${fields[3]}`;
    const normal = fields.join(' ');
    const set = sets.get(key) ?? sets.set(key, []).get(key)!;
    if (!set.includes(normal)) set.push(normal);
  }
  for (const set of sets.values()) set.sort();
  return sets;
}

/** What a secondary answers for `owner TYPE` (answer section, one space between fields, sorted), by kdig or dig. */
function answerOf(secondary: Secondary, owner: string, type: string): Promise<string[]> {
  const [command, args] =
    secondary.name === 'Knot'
      ? ['kdig', [`@127.0.0.1`, '-p', String(secondary.port), '+norec', '+noall', '+answer', owner, type]]
      : ['dig', [`@127.0.0.1`, '-p', String(secondary.port), '+norec', '+noall', '+answer', owner, type]];
  return new Promise((resolve) =>
    execFile(command, args as string[], { timeout: 20_000 }, (_e, stdout) =>
      resolve(
        stdout
          .split('\n')
          .filter((l) => l.trim() && !l.startsWith(';'))
          .map((l) => l.trim().split(/\s+/).join(' '))
          .sort(),
      ),
    ),
  );
}

beforeAll(async () => {
  if (!TOOLS) return;
  dir = tempDir('ddedge-secondaries-');
  const bin = tempDir('ddedge-secondaries-bin-');
  writeFileSync(join(bin, 'ddedge'), `#!/bin/sh\nexec "${process.execPath}" "${DIST}" "$@"\n`, { mode: 0o755 });
  const keys = await runRecipe(readmeRecipe('gateway-key-secondaries'), {
    cwd: dir,
    env: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: dir },
    timeoutMs: 60_000,
  });
  expect(keys.code, keys.output).toBe(0);
  expect(keys.output).toMatch(/^xfr hmac-sha256: .*transfer/m);
  // The test's own key for the updates.
  const admin = execFileSync(process.execPath, [DIST, 'gateway', 'keygen', 'admin'], { encoding: 'utf8' });
  writeFileSync(join(dir, 'admin.key'), admin, { mode: 0o600 });
  writeFileSync(
    join(dir, 'gateway.keys'),
    `${readFileSync(join(dir, 'gateway.keys'), 'utf8')}${admin}grant "admin" zonesub;\n`,
  );
  const ports = { NSD: await freePort(), Knot: await freePort() };
  gateway = await startGatewayProcess({
    apiUrl: sandbox.url,
    zone: ZONE,
    keysFile: join(dir, 'gateway.keys'),
    stateDir: join(dir, 'state'),
    primaryName: null,
    args: ['--notify', `127.0.0.1:${ports.NSD}`, '--notify', `127.0.0.1:${ports.Knot}`],
  });
  secondaries.push(
    startSecondary('NSD', 'nsd-secondary', ports.NSD),
    startSecondary('Knot', 'knot-secondary', ports.Knot),
  );
}, 180_000);

afterAll(async () => {
  await Promise.all(secondaries.map((s) => s.stop()));
  if (gateway) expect(await gateway.stop()).toBe(0);
});

describe.skipIf(!TOOLS)('NSD and Knot as secondaries of the gateway, by the recipes of docs/gateway-clients.md', () => {
  it('each loads the zone by a TSIG-signed transfer and answers every name and type as the gateway holds it', async () => {
    // Unsigned, the gateway gives no transfer: the secondaries' transfers below were signed with xfr.
    expect(await dig(gateway.port, [ZONE, 'AXFR'])).toMatch(/Transfer failed|NOTAUTH|REFUSED/);
    const serial = serialOf(await dig(gateway.port, [ZONE, 'SOA']))!;
    const zone = await gatewayZone();
    expect(zone.size).toBeGreaterThan(3);
    for (const secondary of secondaries) {
      await serves(secondary, serial);
      for (const [key, lines] of zone) {
        const [owner, type] = key.split(' ') as [string, string];
        expect(await answerOf(secondary, owner, type), `${secondary.name}: ${key}`).toEqual(lines);
      }
    }
    expect(secondaries[0]!.output).toMatch(/received update to serial \d+ .* TSIG verified with key xfr/);
    expect(secondaries[1]!.output).toMatch(/AXFR, incoming, remote 127\.0\.0\.1@\d+, finished/);
  });

  it('after an update to the gateway, each gets the NOTIFY and serves the new serial and record within seconds', async () => {
    const update = await nsupdate([`update add notified.${ZONE} 120 A 192.0.2.123`]);
    expect(update.code, update.out).toBe(0);
    const answered = performance.now();
    const serial = serialOf(await dig(gateway.port, [ZONE, 'SOA']))!;
    for (const secondary of secondaries) {
      await serves(secondary, serial);
      console.info(
        `${secondary.name} served serial ${serial} ${Math.round(performance.now() - answered)} ms after the gateway answered the update`,
      );
      expect(await answerOf(secondary, `notified.${ZONE}.`, 'A')).toEqual([`notified.${ZONE}. 120 IN A 192.0.2.123`]);
      expect(secondary.status()).toContain(String(serial));
    }
    const [nsd, knot] = secondaries as [Secondary, Secondary];
    expect(nsd.output).toMatch(new RegExp(`notify for ${ZONE}\\. from 127\\.0\\.0\\.1 serial ${serial}`));
    expect(nsd.output).toMatch(new RegExp(`received update to serial ${serial} .* TSIG verified with key xfr`));
    // Knot asks for IXFR once it holds the zone; the gateway answers it with the whole zone.
    expect(knot.output).toMatch(/notify, incoming, remote 127\.0\.0\.1@\d+/);
    expect(knot.output).toMatch(/IXFR, incoming, remote 127\.0\.0\.1@\d+, receiving AXFR-style IXFR/);
  });

  it('follows a delete too: the name is gone from each', async () => {
    const update = await nsupdate([`update delete notified.${ZONE} A`]);
    expect(update.code, update.out).toBe(0);
    const serial = serialOf(await dig(gateway.port, [ZONE, 'SOA']))!;
    for (const secondary of secondaries) {
      await serves(secondary, serial);
      expect(await dig(secondary.port, [`notified.${ZONE}`, 'A'])).toMatch(/status: NXDOMAIN/);
    }
  });
});
