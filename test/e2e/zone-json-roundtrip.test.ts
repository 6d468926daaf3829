// The JSON form is as exact as the master file (issue 17, item 1, found by a trial as a new
// user): `zone export --format json` then `zone apply` of that file changes nothing, records a
// file cannot hold are left out of it (and named) and kept; `zone export --json` prints JSON;
// a zone file whose bytes are not UTF-8 is refused where it is wrong, not sent with U+FFFD.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { withApi } from '../helpers/agent-env.js';
import { baseEnv, runDist, tempDir } from '../helpers/cli.js';

const ZONE = 'example.com';
let sandbox: Sandbox;
let cwd: string;
let stateDir: string;
beforeEach(async () => {
  sandbox = await startSandbox();
  stateDir = tempDir('ddedge-state-');
  cwd = tempDir('ddedge-cwd-');
});
afterEach(async () => sandbox.close());

const env = () => baseEnv({ ...withApi(sandbox), DDEDGE_STATE_DIR: stateDir, DDEDGE_SERVICE: ZONE });
const ddedge = (args: string[]) => runDist(args, env(), cwd);
const entries = () =>
  sandbox.model.services.find((s) => s.name === ZONE)!.dns.map((e) => `${e.name} ${e.ttl} ${e.type} ${e.priority} ${e.value}`).sort();

async function create(name: string, type: string, value: string, extra: string[] = []): Promise<void> {
  const run = await ddedge(['api', 'service', 'dnscreate', '--serviceName', ZONE, '--name', name, '--type', type, '--value', value, ...extra]);
  expect(run.code, run.stderr).toBe(0);
}

describe('zone export --format json, then apply unchanged', () => {
  it('changes nothing: records a file cannot hold are left out, named on stderr, and kept', { timeout: 60_000 }, async () => {
    await create(`alias.${ZONE}`, 'CNAME', '*.example.net');
    await create(ZONE, 'MX', '*.mx.example.net', ['--priority', '20']);
    await create(ZONE, 'CAA', '0 issue "le"t.org"');
    const before = entries();

    const exported = await ddedge(['zone', 'export', '--format', 'json', '--output', 'rt.json']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toMatch(/left out of the JSON form, kept by plan and apply: alias\.example\.com CNAME/);

    const plan = await ddedge(['zone', 'plan', 'rt.json', '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    const planned = JSON.parse(plan.stdout);
    expect(planned.changes).toEqual([]);
    expect(planned.kept.map((k: { name: string; type: string }) => `${k.name} ${k.type}`)).toEqual(
      expect.arrayContaining([`alias.${ZONE} CNAME`, `${ZONE} MX`, `${ZONE} CAA`]),
    );

    const applied = await ddedge(['zone', 'apply', 'rt.json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(entries()).toEqual(before);
  });

  it('zone export --json prints the JSON form on stdout; with --format bind it is exit 2', async () => {
    const json = await ddedge(['zone', 'export', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const records = JSON.parse(json.stdout);
    expect(Array.isArray(records) && records.length).toBeGreaterThan(0);
    const both = await ddedge(['zone', 'export', '--json', '--format', 'bind']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--json prints the JSON form/);
  });
});

describe('a zone file that is not UTF-8', () => {
  it('is exit 2 naming the line and column of the byte, and nothing is sent', async () => {
    const before = entries();
    // "café" in Latin-1: 0xE9 alone is not UTF-8.
    writeFileSync(join(cwd, 'latin1.zone'), Buffer.concat([Buffer.from(`$ORIGIN ${ZONE}.\nw IN TXT "caf`), Buffer.from([0xe9]), Buffer.from('"\n')]));
    const run = await ddedge(['zone', 'apply', 'latin1.zone']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('latin1.zone:2:14: a byte that is not UTF-8');
    expect(entries()).toEqual(before);
  });
});
