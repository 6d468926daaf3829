// Plans for people and for CI, and a kill during apply: the built dist/ddedge.mjs against the
// sandbox, behind a provider that answers writes only when the test lets it
// (test/helpers/mock-api.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withApi } from '../../helpers/agent-env.js';
import { baseEnv, runDist, runMain, startDist, tempDir, waitForOutput } from '../../helpers/cli.js';
import { waitUntil } from '../../helpers/wait.js';
import { hostileProvider, type HostileProvider } from '../../helpers/mock-api.js';
import { emptyZone, writeZone } from '../../helpers/zone.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const ZONE = 'zone.example';
const sandbox = useSandbox();
let stateDir: string;
let provider: HostileProvider | undefined;
beforeEach(async () => {
  stateDir = tempDir('ddedge-state-');
  const service = emptyZone(sandbox, ZONE);
  for (let i = 0; i < 12; i++)
    service.dns.push({
      entityID: String(10 + i),
      name: i ? `h${i}.${ZONE}` : ZONE,
      type: 'A',
      ttl: '-',
      priority: '-',
      value: `192.0.2.${i + 1}`,
    });
});
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

const env = (extra: Record<string, string> = {}) =>
  baseEnv({ ...withApi(sandbox), DDEDGE_STATE_DIR: stateDir, DDEDGE_SERVICE: ZONE, ...extra });
const zone = () => sandbox.model.services.find((s) => s.name === ZONE)!.dns;
const LIVE = Array.from({ length: 12 }, (_, i) => `${i ? `h${i}` : '@'} A 192.0.2.${i + 1}`);
const fileOf = (lines: string[]) => writeZone(`$ORIGIN ${ZONE}.\n${lines.join('\n')}\n`);
const writesTo = (p: HostileProvider) => p.operations.filter((op) => op !== 'service/dnslist');

/** A provider whose write answers wait until `release()`; `firstWrite` resolves when one arrives. */
async function heldWrites() {
  let release!: () => void;
  let arrived!: () => void;
  const holdWrites = new Promise<void>((r) => (release = r));
  const firstWrite = new Promise<void>((r) => (arrived = r));
  provider = await hostileProvider(sandbox.url, { holdWrites, request: (op) => op !== 'service/dnslist' && arrived() });
  return { url: provider.url, release, firstWrite };
}

describe('apply prints its plan before its first change', () => {
  it('the plan is on stdout while the provider still holds the first write', async () => {
    const held = await heldWrites();
    const child = startDist(
      ['zone', 'apply', fileOf([...LIVE, 'new1 A 192.0.2.101', 'new2 A 192.0.2.102']), '--method', 'calls'],
      env({ DDEDGE_API_URL: held.url }),
    );
    // Listening from the start: the plan comes out before the write is sent.
    const planShown = waitForOutput(child, 'stdout', (t) => t.includes('create  new2'));
    try {
      await held.firstWrite;
      const shown = await planShown;
      expect(shown).toMatch(/zone zone\.example: 2 to create, 0 to update, 0 to delete, 12 unchanged/);
      expect(zone()).toHaveLength(12);
    } finally {
      held.release();
    }
    const run = await child.result;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.match(/2 to create/g)).toHaveLength(1);
    expect(run.stdout).toMatch(/applied 2 changes \(2 calls, at most \d+ in flight\)/);
  });
});

describe('--force', () => {
  it('apply --force says what it overrides, never "apply needs --force"; plan without it says what apply would need', async () => {
    const file = fileOf(LIVE.slice(0, 6));
    const plan = await runMain(['zone', 'plan', file], env());
    expect(plan.stdout).toMatch(/apply needs --force: /);
    const forced = await runMain(['zone', 'apply', file, '--force'], env());
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).not.toMatch(/needs --force/);
    expect(forced.stdout).toMatch(/--force: applied although /);
  });
});

describe('a plan that apply would refuse without --force', () => {
  it('an empty file: plan says "apply needs --force" and exits 0, as docs/zone.md says; 8 with --expect-no-changes; apply exits 2', async () => {
    const file = fileOf([]);
    const plan = await runMain(['zone', 'plan', file], env());
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/^apply needs --force: .*it would delete every record of the zone/m);
    expect((await runMain(['zone', 'plan', '--expect-no-changes', file], env())).code).toBe(8);
    expect((await runMain(['zone', 'apply', file], env())).code).toBe(2);
  });
});

describe('zone plan --expect-no-changes (CI drift checks)', () => {
  it("belongs to plan (and apply --dry-run): apply with it is refused, exit 2, nothing sent; --output is export's", async () => {
    const drift = fileOf([...LIVE.slice(1), '@ A 192.0.2.99']);
    const applied = await runMain(['zone', 'apply', '--expect-no-changes', drift], env());
    expect(applied.code).toBe(2);
    expect(applied.stderr).toContain(
      'zone apply: --expect-no-changes is for zone plan (or apply --dry-run), which check and change nothing; ' +
        'nothing was sent',
    );
    expect(zone().find((e) => e.name === ZONE)!.value).toBe('192.0.2.1');
    expect((await runMain(['zone', 'apply', '--dry-run', '--expect-no-changes', drift], env())).code).toBe(8);
    const output = join(tempDir('ddedge-out-'), 'plan.txt');
    const plan = await runMain(['zone', 'plan', '--output', output, drift], env());
    expect(plan.code).toBe(2);
    expect(plan.stderr).toContain('zone plan: --output is for zone export; the plan is written to standard output');
  });

  it('exits 8 when anything would change, 0 when nothing would; plain plan exits 0 either way', async () => {
    const same = await runMain(['zone', 'plan', '--expect-no-changes', fileOf(LIVE)], env());
    expect(same.code, same.stderr).toBe(0);
    const drift = fileOf([...LIVE.slice(1), '@ A 192.0.2.99']);
    const changed = await runMain(['zone', 'plan', '--expect-no-changes', drift], env());
    expect(changed.code).toBe(8);
    expect(changed.stdout).toMatch(/update +@ IN A 192\.0\.2\.99/);
    const json = await runMain(['zone', 'plan', '--expect-no-changes', '--json', drift], env());
    expect(json.code).toBe(8);
    expect(JSON.parse(json.stdout).summary).toMatchObject({ update: 1 });
    expect((await runMain(['zone', 'plan', drift], env())).code).toBe(0);
  });
});

describe('zone export with the zone as an argument', () => {
  it('suggests --service with the name given; a word that is no domain name is not echoed', async () => {
    const run = await runMain(['zone', 'export', 'example.com'], env());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/give --service example\.com/);
    const secretish = await runMain(['zone', 'export', 's3cr3t!word'], env());
    expect(secretish.code).toBe(2);
    expect(secretish.stderr).toMatch(/--service NAME/);
    expect(secretish.stderr).not.toContain('s3cr3t');
  });
});

describe('a kill during apply', () => {
  it('SIGKILL once the first write reached the provider: the backup is the whole zone as it was, and the next plan shows exactly what is left', async () => {
    const held = await heldWrites();
    const wanted = [...LIVE.slice(0, 10), ...Array.from({ length: 6 }, (_, i) => `k${i} A 192.0.2.${120 + i}`)];
    const file = fileOf(wanted);
    const child = startDist(['zone', 'apply', file, '--method', 'calls'], env({ DDEDGE_API_URL: held.url }));
    await held.firstWrite;
    child.kill('SIGKILL');
    await child.result;
    held.release();
    // The writes in flight at the kill reach the provider (at most 3), the others never.
    const passedOn = () => provider!.finished === provider!.operations.length;
    await waitUntil(passedOn, 'the held writes passed on to the provider');
    const made = writesTo(provider!);
    expect(made.length).toBeGreaterThanOrEqual(1);
    expect(made.length).toBeLessThanOrEqual(3);

    const backups = readdirSync(join(stateDir, 'zone-backups', ZONE));
    expect(backups).toHaveLength(1);
    const backup = join(stateDir, 'zone-backups', ZONE, backups[0]!);
    const restoredPlan = await runMain(['zone', 'plan', '--json', backup], env());
    // Applying the backup would undo exactly the writes that were made.
    expect(JSON.parse(restoredPlan.stdout).changes).toHaveLength(made.length);
    expect(readFileSync(backup, 'utf8').match(/ IN A /g)).toHaveLength(12);

    const left = await runMain(['zone', 'plan', '--json', file], env());
    const report = JSON.parse(left.stdout);
    // 6 creates and 2 deletes were planned; what the provider took is no longer in the plan.
    expect(report.changes).toHaveLength(8 - made.length);
    const again = await runMain(['zone', 'apply', file], env());
    expect(again.code, again.stderr).toBe(0);
    expect((await runMain(['zone', 'plan', '--expect-no-changes', file], env())).code).toBe(0);
  });
});

describe('the HTTP pool is loaded only for runs that make many calls', () => {
  // undici (its chunk and the Node modules it needs) was most of a small plan's cost; the pool
  // of many calls is Node's own http(s) agents, cheaper than undici's at a large zone's pages.
  const chunksRead = (stderr: string) => /CHUNKS READ: (.*)/.exec(stderr)?.[1]?.split(' ') ?? [];
  const withPreload = (extra: Record<string, string> = {}) =>
    env({ NODE_OPTIONS: `--require ${join(import.meta.dirname, '../..', 'helpers', 'chunks-read.cjs')}`, ...extra });

  it('a plan of a small zone (one call) reads no pool chunk; a plan of six pages reads the pool, never undici', async () => {
    const small = await runDist(['zone', 'plan', fileOf(LIVE)], withPreload());
    expect(small.code, small.stderr).toBe(0);
    expect(chunksRead(small.stderr).length).toBeGreaterThan(0);
    expect(
      chunksRead(small.stderr).filter((c) => c.startsWith('undici-transport') || c.startsWith('node-pool-transport')),
    ).toEqual([]);
    const service = sandbox.model.services.find((s) => s.name === ZONE)!;
    for (let i = 0; i < 5_500; i++)
      service.dns.push({
        entityID: String(100_000 + i),
        name: `p${i}.${ZONE}`,
        type: 'A',
        ttl: '-',
        priority: '-',
        value: '192.0.2.200',
      });
    sandbox.calls.clear();
    const large = await runDist(['zone', 'plan', fileOf(LIVE)], withPreload());
    expect(large.code, large.stderr).toBe(0);
    expect(sandbox.calls.get('service/dnslist')).toBe(6);
    expect(
      chunksRead(large.stderr).filter((c) => c.startsWith('node-pool-transport') && c.endsWith('.cjs')),
    ).toHaveLength(1);
    expect(chunksRead(large.stderr).filter((c) => c.startsWith('undici'))).toEqual([]);
  });
});
