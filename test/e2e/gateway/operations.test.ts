// `ddedge gateway` (the built file) run as an operator runs it, in front of the sandbox's API:
// --listen's /healthz, /metrics and /status; its own call budget (--max-calls-per-hour) counted
// in the state directory apart from the agent's, and what happens when it is spent; the
// provider down (SERVFAIL with an Extended DNS Error, nothing written, health 503 with the
// reason, back to 200 when it returns); SIGHUP reloading the keys file, and keeping the old
// keys when the new file is broken; SIGTERM (exit 0, the endpoint closed).
import { execFile, execFileSync } from 'node:child_process';
import dgram from 'node:dgram';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeMessage } from '../../../src/dns/wire/message.js';
import { signMessage } from '../../../src/dns/wire/tsig.js';
import { keygenText } from '../../../src/gateway/keys/keygen.js';
import { parseFault } from '../../../src/sandbox/faults.js';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server.js';
import { type startDist, tempDir } from '../../helpers/cli.js';
import { spawnGateway, startGatewayProcess } from '../../helpers/use-gateway.js';
import { requireTool } from '../../helpers/programs.js';

const TOOLS = requireTool('nsupdate', 'bind9-dnsutils') && requireTool('dig', 'bind9-dnsutils');
const PASSWORD = 'demo-api-password';
const API_ENV = { DDEDGE_API_USER: 'demo-user', DDEDGE_API_PASSWORD: PASSWORD };

interface Key {
  text: string;
  name: string;
  secret: string;
}
const makeKey = (name: string): Key => {
  const text = keygenText(name, 'hmac-sha256');
  return { text, name, secret: /secret "([^"]+)"/.exec(text)![1]! };
};

type Gateway = ReturnType<typeof startDist> & { port: number; stderr: () => string; url?: string };

/** Starts the built gateway; resolves once it answers DNS (and HTTP, with --listen). */
async function startGateway(
  sandbox: Sandbox,
  keysFile: string,
  stateDir: string,
  extra: string[],
  env: Record<string, string> = {},
): Promise<Gateway> {
  const gateway = await startGatewayProcess({
    apiUrl: sandbox.url,
    zone: 'example.com',
    keysFile,
    stateDir,
    args: extra,
    env: { ...API_ENV, ...env },
    primaryName: null,
    startBoundMs: 20_000,
  });
  return Object.assign(gateway.child, { port: gateway.port, stderr: gateway.stderr, url: gateway.endpoint });
}

/** An nsupdate script sent to the gateway, signed with `key`. */
function nsupdate(port: number, key: Key, lines: string[]): Promise<{ code: number; out: string }> {
  const script = [`server 127.0.0.1 ${port}`, ...lines, 'send', ''].join('\n');
  return new Promise((resolve) => {
    const child = execFile(
      'nsupdate',
      ['-t', '8', '-y', `hmac-sha256:${key.name}:${key.secret}`],
      { timeout: 20_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
    child.stdin!.end(script);
  });
}

/** A signed UPDATE with EDNS (so the answer may carry an EDE) adding A records at one name; resolves with the answer's code and bytes. */
async function signedUpdate(
  port: number,
  key: Key,
  zone: string,
  name: string,
  ...addresses: string[]
): Promise<{ rcode: number; answer: Buffer }> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', () => r()));
  try {
    const id = Math.floor(Math.random() * 65536);
    const update = encodeMessage({
      id,
      opcode: 5,
      questions: [{ name: zone, type: 6, class: 1 }],
      authority: addresses.map((value) => ({ name, type: 'A' as const, ttl: 60, value })),
      ednsUdpSize: 1232,
    });
    const signer = { name: key.name, algorithm: 'hmac-sha256' as const, secret: Buffer.from(key.secret, 'base64') };
    const answer = new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer to the update within 20s')), 20_000);
      socket.on('message', (m) => {
        if (m.readUInt16BE(0) !== id) return;
        clearTimeout(timer);
        resolve(m);
      });
    });
    socket.send(
      signMessage(update, signer, undefined, { timeSigned: Math.floor(Date.now() / 1000) }).message,
      port,
      '127.0.0.1',
    );
    const bytes = await answer;
    return { rcode: bytes.readUInt16BE(2) & 0xf, answer: bytes };
  } finally {
    socket.close();
  }
}

/** The Extended DNS Error text of an answer: option 15 (code, length, info code, text) holding printable text, the last one found. */
function edeText(answer: Buffer): string | undefined {
  let found: string | undefined;
  for (let i = 12; i + 6 <= answer.length; i++) {
    if (answer.readUInt16BE(i) !== 15) continue;
    const length = answer.readUInt16BE(i + 2);
    if (length < 12 || i + 4 + length > answer.length) continue;
    const text = answer.subarray(i + 6, i + 4 + length).toString('utf8');
    if (/^[\x20-\x7e]+$/.test(text)) found = text;
  }
  return found;
}

const get = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() };
};

/** Polls until `check` holds (bounded); returns the last value. */
async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, tries = 300): Promise<T> {
  let value = await read();
  for (let i = 0; i < tries && !check(value); i++) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return value;
}

const sandboxZone = (sandbox: Sandbox) =>
  sandbox.model.services
    .find((s) => s.name === 'example.com')!
    .dns.map((e) => `${e.name} ${e.type} ${e.value}`)
    .sort();

describe.skipIf(!TOOLS)('the gateway as a service: probes, metrics, reload, provider down', () => {
  let sandbox: Sandbox;
  let gateway: Gateway;
  let keysFile: string;
  const admin = makeKey('admin');
  const late = makeKey('late');

  beforeAll(async () => {
    sandbox = await startSandbox({});
    const dir = tempDir();
    keysFile = join(dir, 'gateway.keys');
    writeFileSync(keysFile, `${admin.text}grant "admin" zonesub;\n`, { mode: 0o600 });
    gateway = await startGateway(sandbox, keysFile, join(dir, 'state'), [
      '--listen',
      '127.0.0.1:0',
      '--refresh',
      '1s',
      '--timeout',
      '2s',
      '--max-calls-per-hour',
      '3600',
    ]);
  });
  afterAll(async () => {
    if (gateway) {
      gateway.kill('SIGTERM');
      expect((await gateway.result).code).toBe(0);
      // The endpoint is gone with it.
      await expect(fetch(`${gateway.url}/healthz`)).rejects.toThrow();
    }
    await sandbox?.close();
  });

  it('serves /healthz (200 while every zone is read and DNS answers), /metrics and /status, with no secret', async () => {
    expect(gateway.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await get(`${gateway.url}/healthz`);
    expect(health.status, health.body).toBe(200);
    expect(health.body).toMatch(/^healthy: 1 zone read within the last 5s/);
    expect((await nsupdate(gateway.port, admin, ['update add metered.example.com 60 A 192.0.2.90'])).code).toBe(0);
    // An update of a zone not served is counted under "-", never under the name a client chose.
    expect((await signedUpdate(gateway.port, admin, 'example.org', 'x.example.org', '192.0.2.1')).rcode).toBe(9);
    const serial = Number(
      execFileSync('dig', ['@127.0.0.1', '-p', String(gateway.port), '+short', 'example.com', 'SOA'], {
        encoding: 'utf8',
      }).split(' ')[2],
    );
    // A transfer without a key allowed to transfer: refused, and counted.
    expect(
      execFileSync('dig', ['@127.0.0.1', '-p', String(gateway.port), '+time=5', '+tries=1', 'example.com', 'AXFR'], {
        encoding: 'utf8',
      }),
    ).toMatch(/Transfer failed/);

    const metrics = await get(`${gateway.url}/metrics`);
    expect(metrics.type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(metrics.body).toContain('ddedge_gateway_updates_total{zone="example.com",rcode="NOERROR"} 1\n');
    expect(metrics.body).toContain('ddedge_gateway_updates_total{zone="-",rcode="NOTAUTH"} 1\n');
    expect(metrics.body).not.toContain('example.org');
    expect(metrics.body).toContain('ddedge_gateway_transfers_total{zone="example.com",rcode="REFUSED"} 1\n');
    expect(Number(/^ddedge_gateway_queries_total (\d+)$/m.exec(metrics.body)?.[1])).toBeGreaterThanOrEqual(1);
    expect(metrics.body).toContain(`ddedge_gateway_zone_serial{zone="example.com"} ${serial}\n`);
    expect(metrics.body).toMatch(/^ddedge_gateway_zone_read_age_seconds\{zone="example\.com"\} \d+$/m);
    expect(metrics.body).toContain('ddedge_gateway_provider_calls_total{operation="service/dnscreate"} 1\n');
    const sent = [
      ...metrics.body.matchAll(/^ddedge_gateway_provider_calls_total\{operation="[^"]+"\} (\d+)$/gm),
    ].reduce((n, m) => n + Number(m[1]), 0);
    const left = Number(/^ddedge_gateway_calls_left (\d+)$/m.exec(metrics.body)?.[1]);
    expect(sent).toBeGreaterThanOrEqual(3);
    // Every call sent was counted first (refreshes may have run between the two readings).
    expect(left).toBeLessThanOrEqual(3600 - sent);
    expect(metrics.body).toContain('ddedge_gateway_calls_per_hour_limit 3600\n');
    expect(metrics.body).toContain('ddedge_gateway_up 1\n');
    expect(metrics.body).toContain('ddedge_gateway_dns_listeners 1\n');

    const status = await get(`${gateway.url}/status`);
    const document = JSON.parse(status.body) as {
      healthy: boolean;
      zones: { zone: string; serial: number; secondsSinceGoodRead: number }[];
      budget: { limit: number };
      keys: number;
      updates: unknown[];
    };
    expect(document).toMatchObject({
      healthy: true,
      keys: 1,
      budget: { limit: 3600 },
      zones: [{ zone: 'example.com', serial }],
    });
    expect(document.updates).toContainEqual({ zone: 'example.com', rcode: 'NOERROR', count: 1 });
    for (const body of [health.body, metrics.body, status.body, gateway.stderr()]) {
      expect(body).not.toContain(PASSWORD);
      expect(body).not.toContain(admin.secret);
    }
  });

  it('SIGHUP: a key added to the file works after it; a broken file keeps the old keys and the log says why, with file and line, no secret', async () => {
    expect((await nsupdate(gateway.port, late, ['update add late.example.com 60 A 192.0.2.91'])).out).toMatch(
      /NOTAUTH|BADKEY|failed/i,
    );
    writeFileSync(
      keysFile,
      `${admin.text}grant "admin" zonesub;\n${late.text}grant "late" name late.example.com A;\n`,
      { mode: 0o600 },
    );
    const before = gateway.stderr().length;
    gateway.kill('SIGHUP');
    await until(
      async () => gateway.stderr().slice(before),
      (t) => /keys file reloaded; 2 keys/.test(t),
    );
    expect(gateway.stderr().slice(before)).toMatch(/keys file reloaded; 2 keys/);
    const added = await nsupdate(gateway.port, late, ['update add late.example.com 60 A 192.0.2.91']);
    expect(added.code, added.out).toBe(0);
    expect(sandboxZone(sandbox)).toContain('late.example.com A 192.0.2.91');

    // Line 3 of the new file holds a secret that is not base64, line 4 a grant of a rule that is none: both are named.
    const broken = makeKey('broken');
    writeFileSync(
      keysFile,
      `key "admin" { algorithm hmac-sha256; secret "${admin.secret}"; };\ngrant "admin" zonesub;\nkey "broken" { algorithm hmac-sha256; secret "${broken.secret}!!"; };\ngrant "admin" everywhere;\n`,
      { mode: 0o600 },
    );
    expect(readFileSync(keysFile, 'utf8').split('\n')[2]).toContain('key "broken"');
    const mark = gateway.stderr().length;
    gateway.kill('SIGHUP');
    const said = await until(
      async () => gateway.stderr().slice(mark),
      (t) => /not reloaded/.test(t),
    );
    expect(said).toMatch(
      new RegExp(
        `the keys file was not reloaded, the keys loaded before stay: ${keysFile.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:3:\\d+: key "broken": the secret is not base64; .*:4:15: grant "admin": expected zonesub`,
      ),
    );
    for (const secret of [admin.secret, late.secret, broken.secret]) expect(gateway.stderr()).not.toContain(secret);
    // The keys loaded before still work, the late one included.
    const still = await nsupdate(gateway.port, late, ['update delete late.example.com A']);
    expect(still.code, still.out).toBe(0);
    expect(JSON.parse((await get(`${gateway.url}/status`)).body)).toMatchObject({ keys: 2 });
  });

  it('the provider failing half-way through an update: the write made is undone, SERVFAIL with an EDE saying so, the zone as before, counted in /metrics', async () => {
    const before = sandboxZone(sandbox);
    // The two creates are sent side by side; the first to arrive fails, the other is made, then undone.
    sandbox.faults.push(parseFault('service/dnscreate=503x1'));
    const deletes = sandbox.calls.get('service/dnsdelete') ?? 0;
    const { rcode, answer } = await signedUpdate(
      gateway.port,
      admin,
      'example.com',
      'mid.example.com',
      '192.0.2.97',
      '192.0.2.98',
    );
    expect(rcode).toBe(2);
    // A 503 does not say whether the create was made: the zone is read again before the answer.
    expect(edeText(answer)).toMatch(
      /the provider failed a write .*; the zone read again held 1 of the batch's writes, which were und/,
    );
    expect(sandbox.calls.get('service/dnsdelete')).toBe(deletes + 1);
    expect(sandboxZone(sandbox)).toEqual(before);
    expect((await get(`${gateway.url}/metrics`)).body).toContain(
      'ddedge_gateway_updates_total{zone="example.com",rcode="SERVFAIL"} 1\n',
    );
  });

  it('the provider down: an update is SERVFAIL with an EDE saying why and nothing is written; /healthz turns 503 with the reason, and 200 again once it is back', async () => {
    const before = sandboxZone(sandbox);
    sandbox.faults.push(parseFault('*=503'));
    try {
      const { rcode, answer } = await signedUpdate(
        gateway.port,
        admin,
        'example.com',
        'down.example.com',
        '192.0.2.92',
      );
      expect(rcode).toBe(2);
      expect(edeText(answer)).toMatch(/cannot read the zone from the provider: .*503/);
      expect(sandboxZone(sandbox)).toEqual(before);
      // Health: three refreshes (1s) and the timeout (2s) without a good reading.
      const health = await until(
        () => get(`${gateway.url}/healthz`),
        (h) => h.status === 503,
      );
      expect(health.status).toBe(503);
      expect(health.body).toMatch(/^unhealthy: example\.com last read from the provider \d+s ago \(limit 5s\): .*503/);
      expect(health.body).not.toContain(PASSWORD);
      // Queries are still answered from the last reading.
      expect(
        execFileSync('dig', ['@127.0.0.1', '-p', String(gateway.port), '+short', 'metered.example.com', 'A'], {
          encoding: 'utf8',
        }).trim(),
      ).toBe('192.0.2.90');
    } finally {
      sandbox.faults.length = 0;
    }
    const back = await until(
      () => get(`${gateway.url}/healthz`),
      (h) => h.status === 200,
    );
    expect(back.status, back.body).toBe(200);
  });
});

describe.skipIf(!TOOLS)("the gateway's call budget", () => {
  const admin = makeKey('admin');

  it("is 600 an hour unless set (the agent's 60 is not the gateway's), and DDEDGE_MAX_CALLS_PER_HOUR in a dotenv file sets it", async () => {
    const sandbox = await startSandbox({});
    const dir = tempDir();
    const keysFile = join(dir, 'keys');
    writeFileSync(keysFile, `${admin.text}grant "admin" zonesub;\n`, { mode: 0o600 });
    const env = join(dir, 'gateway.env');
    writeFileSync(env, 'DDEDGE_MAX_CALLS_PER_HOUR=50\n');
    for (const [extra, limit] of [
      [[], 600],
      [['--env-file', env], 50],
    ] as const) {
      const gateway = await startGateway(sandbox, keysFile, join(dir, `state-${limit}`), [...extra]);
      expect(gateway.stderr()).toMatch(new RegExp(`at most ${limit} provider calls an hour \\(${limit - 1} left\\)`));
      gateway.kill('SIGTERM');
      expect((await gateway.result).code).toBe(0);
    }
    await sandbox.close();
  });

  it('counts every provider call in the state directory, apart from the agent; spent: refreshes skipped with one warning, updates SERVFAIL with an EDE, nothing written, queries answered, health 503, a restart exit 4', async () => {
    const sandbox = await startSandbox({});
    const dir = tempDir();
    const keysFile = join(dir, 'keys');
    const stateDir = join(dir, 'state');
    writeFileSync(keysFile, `${admin.text}grant "admin" zonesub;\n`, { mode: 0o600 });
    // Four calls: the reading at start, then refreshes every second until the budget is spent.
    const gateway = await startGateway(sandbox, keysFile, stateDir, [
      '--max-calls-per-hour',
      '4',
      '--refresh',
      '1s',
      '--listen',
      '127.0.0.1:0',
    ]);
    try {
      expect(gateway.stderr()).toMatch(/at most 4 provider calls an hour \(3 left\)/);
      expect(gateway.stderr()).toMatch(/re-reading 1 zone every 1s takes 3600 of the 4 provider calls allowed an hour/);
      await until(
        async () => gateway.stderr(),
        (t) => /budget of 4 provider calls an hour is spent/.test(t),
      );
      const health = await until(
        () => get(`${gateway.url}/healthz`),
        (h) => h.status === 503,
      );
      expect(health.body).toMatch(
        /the budget of 4 provider calls an hour is spent until \d{4}-\d\d-\d\dT\d\d:\d\d:00Z: updates are answered SERVFAIL/,
      );
      expect(gateway.stderr()).not.toMatch(/re-reading example\.com failed/);

      const before = sandboxZone(sandbox);
      const { rcode, answer } = await signedUpdate(
        gateway.port,
        admin,
        'example.com',
        'spent.example.com',
        '192.0.2.93',
      );
      expect(rcode).toBe(2);
      expect(edeText(answer)).toMatch(
        /the budget of 4 provider calls an hour is spent; calls resume at \d{4}-\d\d-\d\dT\d\d:\d\d:00Z \(--max-calls-per-hour\)/,
      );
      expect(sandboxZone(sandbox)).toEqual(before);
      expect(
        execFileSync('dig', ['@127.0.0.1', '-p', String(gateway.port), '+short', 'home.example.com', 'A'], {
          encoding: 'utf8',
        }).trim(),
      ).toBe('192.0.2.20');

      // Exactly the calls sent, counted in the gateway's own file; the agent's state has none.
      expect(sandbox.calls.get('service/dnslist')).toBe(4);
      const counted = JSON.parse(readFileSync(join(stateDir, 'gateway', 'calls.json'), 'utf8')) as {
        calls: Record<string, number>;
      };
      expect(Object.values(counted.calls).reduce((a, b) => a + b, 0)).toBe(4);
      expect(
        existsSync(join(stateDir, 'state.json'))
          ? JSON.parse(readFileSync(join(stateDir, 'state.json'), 'utf8')).calls
          : undefined,
      ).toBeUndefined();
      // Said once while spent, the refused update and the refreshes meanwhile included (on a moved clock: call-budget.test.ts).
      expect(
        gateway
          .stderr()
          .match(/budget of 4 provider calls an hour is spent[^\n]*; until then updates are answered SERVFAIL/g),
      ).toHaveLength(1);
      const metrics = (await get(`${gateway.url}/metrics`)).body;
      expect(metrics).toContain('ddedge_gateway_calls_left 0\n');
      expect(metrics).toContain('ddedge_gateway_up 0\n');
    } finally {
      gateway.kill('SIGTERM');
    }
    expect((await gateway.result).code).toBe(0);
    // A restart on the same state directory knows the budget is spent: exit 4 (worth retrying later), no call sent.
    const again = spawnGateway({
      apiUrl: sandbox.url,
      zone: 'example.com',
      keysFile,
      stateDir,
      primaryName: null,
      args: ['--max-calls-per-hour', '4'],
      env: API_ENV,
    });
    const result = await again.result;
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr).toMatch(
      /--zone example\.com: cannot read it from the provider now: the budget of 4 provider calls an hour is spent/,
    );
    expect(sandbox.calls.get('service/dnslist')).toBe(4);
    await sandbox.close();
  });

  it('is one count for two gateways on one state directory: the calls of each weigh on the other', async () => {
    const sandbox = await startSandbox({});
    const dir = tempDir();
    const keysFile = join(dir, 'keys');
    const stateDir = join(dir, 'state');
    writeFileSync(keysFile, `${admin.text}grant "admin" zonesub;\n`, { mode: 0o600 });
    const first = await startGateway(sandbox, keysFile, stateDir, ['--max-calls-per-hour', '2', '--refresh', '1h']);
    const second = await startGateway(sandbox, keysFile, stateDir, ['--max-calls-per-hour', '2', '--refresh', '1h']);
    try {
      expect(second.stderr()).toMatch(/at most 2 provider calls an hour \(0 left\)/);
      // The first gateway read once and thinks one call is left; the file says none.
      const { rcode, answer } = await signedUpdate(first.port, admin, 'example.com', 'two.example.com', '192.0.2.99');
      expect(rcode).toBe(2);
      expect(edeText(answer)).toMatch(/budget of 2 provider calls an hour is spent/);
      expect(sandbox.calls.get('service/dnslist')).toBe(2);
    } finally {
      first.kill('SIGTERM');
      second.kill('SIGTERM');
    }
    expect((await first.result).code).toBe(0);
    expect((await second.result).code).toBe(0);
    await sandbox.close();
  });

  it('sends no write of an update whose writes and undoing the budget cannot hold: SERVFAIL with an EDE; one that fits is made and the unused calls given back', async () => {
    const sandbox = await startSandbox({});
    const dir = tempDir();
    const keysFile = join(dir, 'keys');
    const stateDir = join(dir, 'state');
    // The key may spend the whole budget (by default a key may spend half of it: gateway-key-calls.test.ts).
    writeFileSync(keysFile, `${admin.text}grant "admin" zonesub;\nquota "admin" calls 7;\n`, { mode: 0o600 });
    // 1 reading at start; an update of one record: 1 reading, then 3 set aside (the write, a reading, the undoing write).
    const gateway = await startGateway(sandbox, keysFile, stateDir, ['--max-calls-per-hour', '7', '--refresh', '1h']);
    try {
      const first = await signedUpdate(gateway.port, admin, 'example.com', 'fits.example.com', '192.0.2.94');
      expect(first.rcode, edeText(first.answer)).toBe(0);
      expect(sandboxZone(sandbox)).toContain('fits.example.com A 192.0.2.94');
      // Used: 3 (two readings and the write); the two set aside and unused are back: 4 left.
      const counted = () =>
        Object.values(
          (
            JSON.parse(readFileSync(join(stateDir, 'gateway', 'calls.json'), 'utf8')) as {
              calls: Record<string, number>;
            }
          ).calls,
        ).reduce((a, b) => a + b, 0);
      expect(counted()).toBe(3);
      // The next: 4 weighed before the reading (4 left), 1 reading, then 3 needed... fits; the one after is weighed
      // at 4 before anything is read, with 2 left: no call at all.
      expect((await signedUpdate(gateway.port, admin, 'example.com', 'fits2.example.com', '192.0.2.95')).rcode).toBe(0);
      expect(counted()).toBe(5);
      const before = sandboxZone(sandbox);
      const creates = sandbox.calls.get('service/dnscreate');
      const refused = await signedUpdate(gateway.port, admin, 'example.com', 'toomuch.example.com', '192.0.2.96');
      expect(refused.rcode).toBe(2);
      expect(edeText(refused.answer)).toMatch(
        /the budget of 7 provider calls an hour is spent: this update \(and undoing it, should a write fail\) may take 4 calls and 2 are left; calls resume at /,
      );
      expect(sandboxZone(sandbox)).toEqual(before);
      expect(sandbox.calls.get('service/dnscreate')).toBe(creates);
      expect(counted()).toBe(5);
    } finally {
      gateway.kill('SIGTERM');
    }
    // Bounded, and saying what the gateway last wrote: once (Node 26, a loaded machine) this test
    // ran out of its 300 s with no sign of where; the stop is a promise of its own (SIGTERM: exit 0).
    expect((await exitWithin(gateway, 30_000)).code).toBe(0);
    await sandbox.close();
  });
});

/** The gateway's exit, or a failure naming what it last wrote when it has not exited within `ms`. */
async function exitWithin(gateway: Gateway, ms: number): Promise<{ code: number | null }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the gateway did not exit within ${ms} ms of SIGTERM; it wrote:\n${gateway.stderr()}`)),
      ms,
    );
  });
  try {
    return await Promise.race([gateway.result, late]);
  } finally {
    clearTimeout(timer);
  }
}
