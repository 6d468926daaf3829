// A local attacker who can write the folder of a file ddedge replaces (a shared metrics folder,
// the sandbox's data folder) plants symbolic links where the temporary file will be. The old
// name, `<file>.<pid>.tmp`, was guessable: pids are handed out in order, so links for the next
// few thousand pids catch the run. ddedge (often root) must never write through them.
import { lstatSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/server.js';
import { agentEnv } from '../../helpers/agent-env.js';
import { startDist, tempDir, type RunResult } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox();

const VICTIM = 'ROOT-ONLY CONTENT\n';
function victim(): string {
  const path = join(tempDir('ddedge-victim-'), 'shadow');
  writeFileSync(path, VICTIM, { mode: 0o600 });
  return path;
}

/**
 * Pids the next processes will get: Linux hands them out in order and, past pid_max, starts
 * again at 300 (RESERVED_PIDS). Once wrapped by `% max || 1`, every pid after the wrap was 1 and
 * the second link there failed (EEXIST) on a machine whose pids were near pid_max.
 */
function nextPids(count: number): number[] {
  const last = Number(readFileSync('/proc/sys/kernel/ns_last_pid', 'utf8'));
  const max = Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8'));
  const RESERVED = 300;
  return Array.from({ length: count }, (_, i) => {
    const next = last + 1 + i;
    return next < max ? next : RESERVED + ((next - max) % (max - RESERVED));
  });
}

describe('links planted at the temporary names of the files an update writes', () => {
  it('state.json and the metrics file are replaced, the files the links point at are untouched', async () => {
    const attacked = victim();
    // Bounded retries, each in fresh folders: a burst of other processes may take every
    // planted pid before ours.
    let result: RunResult | undefined;
    let env: Record<string, string> = {};
    let metrics = '';
    for (let attempt = 0; attempt < 3 && !result; attempt++) {
      metrics = join(tempDir('ddedge-metrics-'), 'ddedge.prom');
      env = agentEnv(sandbox, { DDEDGE_METRICS_FILE: metrics });
      const pids = nextPids(3000);
      for (const pid of pids) {
        symlinkSync(attacked, join(env.DDEDGE_STATE_DIR!, `state.json.${pid}.tmp`));
        symlinkSync(attacked, `${metrics}.${pid}.tmp`);
      }
      const child = startDist(['update', '--ip', '81.0.2.15'], env);
      const done = await child.result;
      if (pids.includes(child.pid!)) result = done;
    }
    expect(result, 'the run got a pid that had links planted').toBeDefined();
    expect(result!.stdout).toBe('home.example.com A 81.0.2.15 updated\n');
    expect(result!.code).toBe(0);
    expect(readFileSync(attacked, 'utf8')).toBe(VICTIM);
    expect(lstatSync(join(env.DDEDGE_STATE_DIR!, 'state.json')).isFile()).toBe(true);
    expect(
      JSON.parse(readFileSync(join(env.DDEDGE_STATE_DIR!, 'state.json'), 'utf8')).records['home.example.com/A'].address,
    ).toBe('81.0.2.15');
    expect(lstatSync(metrics).isFile()).toBe(true);
    expect(readFileSync(metrics, 'utf8')).toContain(
      'ddedge_address_info{host="home.example.com",type="A",address="81.0.2.15"} 1',
    );
  });
});

describe("the sandbox's --data file", () => {
  it('is saved without following a link at its old temporary name', async () => {
    const attacked = victim();
    const data = join(tempDir('ddedge-data-'), 'sandbox.json');
    symlinkSync(attacked, `${data}.${process.pid}.tmp`);
    const own = await startSandbox({ dataFile: data });
    try {
      const env = agentEnv(own);
      const child = startDist(['update', '--ip', '81.0.2.15'], env);
      expect((await child.result).code).toBe(0);
    } finally {
      await own.close();
    }
    expect(readFileSync(attacked, 'utf8')).toBe(VICTIM);
    expect(readFileSync(data, 'utf8')).toContain('81.0.2.15');
    expect(
      readdirSync(join(data, '..')).filter((n) => n.endsWith('.tmp') && lstatSync(join(data, '..', n)).isFile()),
    ).toEqual([]);
  });
});
