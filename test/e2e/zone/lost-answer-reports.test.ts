// `zone apply` and the agent's API path (the built file) against the sandbox when the answer to
// a write is lost (the lost-answer fault: the change is made, then the connection reset). The
// report must say what the provider holds: before, apply listed as "not done" a record the
// provider held and exited 5 for a zone that matched its file, and the agent reported a failed
// update for an entry it had created.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFault } from '../../../src/sandbox/faults.js';
import { agentEnv, withApi, zoneValue } from '../../helpers/agent-env.js';
import { runDist, tempDir } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox({ per: 'file' });

/** The provider's records below `under`, as `name TYPE value`. */
const zone = (under: string): string[] =>
  sandbox.model.services
    .find((s) => s.name === 'example.com')!
    .dns.filter((e) => e.name.endsWith(under))
    .map((e) => `${e.name} ${e.type} ${e.value}`)
    .sort();

/** A zone file: the zone as the provider holds it (exported) plus `lines`. */
async function fileWith(env: Record<string, string>, lines: string[]): Promise<string> {
  const exported = await runDist(['zone', 'export', '--service', 'example.com'], env);
  expect(exported.code, exported.stderr).toBe(0);
  const file = join(tempDir('ddedge-lost-zone-'), 'example.com.zone');
  writeFileSync(file, `${exported.stdout}${lines.join('\n')}\n`);
  return file;
}

describe('zone apply after a lost answer reports what the provider holds', () => {
  it('three creates, the first answer lost: the zone read again holds all three, exit 0, and the output says the answer was lost', async () => {
    const env = agentEnv(sandbox, withApi(sandbox));
    const file = await fileWith(env, [
      'a.apply1 300 IN A 192.0.2.11',
      'b.apply1 300 IN A 192.0.2.12',
      'c.apply1 300 IN A 192.0.2.13',
    ]);
    sandbox.faults.push(parseFault('service/dnscreate=lost-answerx1'));
    const run = await runDist(['zone', 'apply', '--service', 'example.com', '--method', 'calls', file], env);
    expect(sandbox.faults.at(-1)!.remaining).toBe(0);
    expect(zone('apply1.example.com')).toHaveLength(3);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    // Exit 0: the lines go to stdout.
    expect(run.stdout).toMatch(/the answer to a call was lost \(.*\); read again, the zone holds every change/);
    expect(run.stdout).toMatch(/applied 3 changes .*; the zone read back matches the file/);
  });

  it('six creates, three in flight, the first answer lost: done and not done are what the provider holds, exit 5', async () => {
    const env = agentEnv(sandbox, withApi(sandbox));
    const names = ['a', 'b', 'c', 'd', 'e', 'f'].map((n, i) => `${n}.apply2 300 IN A 192.0.2.${20 + i}`);
    const file = await fileWith(env, names);
    sandbox.faults.push(parseFault('service/dnscreate=lost-answerx1'));
    const run = await runDist(['zone', 'apply', '--service', 'example.com', '--method', 'calls', '--json', file], env);
    const held = zone('apply2.example.com');
    expect(held.length).toBeGreaterThanOrEqual(1);
    expect(held.length).toBeLessThan(6);
    expect(run.code, run.stdout + run.stderr).toBe(5);
    const report = JSON.parse(run.stdout) as {
      done: { record: { name: string; value: string } }[];
      notDone: { record: { name: string; value: string } }[];
    };
    const listed = (steps: typeof report.done) =>
      steps.map((s) => `${s.record.name.replace(/\.$/, '')} A ${s.record.value}`).sort();
    expect(listed(report.done)).toEqual(held);
    expect(report.done.length + report.notDone.length).toBe(6);
    expect(listed(report.notDone).some((r) => held.includes(r))).toBe(false);
    expect(report).toMatchObject({ failedCallMayHaveBeenMade: true, failedCallMade: true, exitCode: 5 });
  });
});

describe('zone apply by dnssetzone after a lost answer', () => {
  it('the replace made but unanswered, its two retries too: read again, the zone matches the file, exit 0', async () => {
    const env = agentEnv(sandbox, withApi(sandbox));
    const file = await fileWith(env, ['a.apply3 300 IN A 192.0.2.31']);
    // dnssetzone is idempotent: the client sends it three times before it gives up.
    sandbox.faults.push(parseFault('service/dnssetzone=lost-answerx3'));
    const run = await runDist(
      ['zone', 'apply', '--service', 'example.com', '--method', 'setzone', '--json', file],
      env,
    );
    expect(sandbox.faults.at(-1)!.remaining).toBe(0);
    expect(zone('apply3.example.com')).toEqual(['a.apply3.example.com A 192.0.2.31']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      exitCode: 0,
      error: null,
      notDone: [],
      done: [expect.anything()],
      answerLost: expect.any(String),
    });
  });
});

describe("the agent's API path after a lost answer reports what the provider holds", () => {
  it('a create whose answer is lost: the entry is there, the update is reported made (exit 0)', async () => {
    const env = agentEnv(sandbox, withApi(sandbox));
    sandbox.faults.push(parseFault('service/dnscreate=lost-answerx1'));
    const run = await runDist(
      ['update', '--ip', '81.0.2.41', '--via', 'api', '--host', 'lost-create.example.com', '--json'],
      env,
    );
    expect(sandbox.faults.at(-1)!.remaining).toBe(0);
    expect(zoneValue(sandbox, 'lost-create.example.com')).toBe('81.0.2.41');
    expect(zone('lost-create.example.com')).toHaveLength(1);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).hosts[0]).toMatchObject({ host: 'lost-create.example.com', via: 'api' });
    expect(run.stderr).toMatch(
      /the answer to creating the A entry of lost-create\.example\.com in example\.com was lost .*; read again, the provider holds 81\.0\.2\.41: it was made/,
    );
  });

  it('an update whose every attempt loses its answer: the new value is there, reported made (exit 0)', async () => {
    const env = agentEnv(sandbox, withApi(sandbox));
    sandbox.faults.push(parseFault('service/dnsupdate=lost-answerx3'));
    const run = await runDist(['update', '--ip', '81.0.2.42', '--via', 'api', '--json'], env);
    expect(zoneValue(sandbox, 'home.example.com')).toBe('81.0.2.42');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).hosts[0]).toMatchObject({ host: 'home.example.com', action: 'updated', via: 'api' });
  });

  it('a create whose connection is reset before it is made: reported failed, nothing there', async () => {
    const env = agentEnv(sandbox, withApi(sandbox));
    sandbox.faults.push(parseFault('service/dnscreate=resetx1'));
    const run = await runDist(
      ['update', '--ip', '81.0.2.43', '--via', 'api', '--host', 'reset-create.example.com'],
      env,
    );
    expect(zone('reset-create.example.com')).toEqual([]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/read again, the provider does not hold 81\.0\.2\.43: it was not made/);
  });
});
