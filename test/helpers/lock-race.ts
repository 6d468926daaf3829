// "Two cycles never run at once against the same state directory", under pressure: N cycles of
// the built file started together, R times, every other time over a lock left by a dead
// process. Against a provider that answers slowly and counts requests, exactly one cycle sends
// each time. The cycles are lined up first: each pings a heartbeat monitor before it takes the
// lock, and the monitor answers none of them until all have arrived, so they reach the lock
// together. The suite runs a few rounds (lock-race.test.ts); `npm run test:stress` runs many.
import { writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { agentEnv } from './agent-env.js';
import { startDist } from './cli.js';

export function defineLockRace(rounds: number, cycles: number, timeoutMs: number): void {
  let sandbox: Sandbox;
  let barrierUrl: string;
  const waiting: ServerResponse[] = [];
  const barrier = createServer((req, res) => {
    if (!req.url?.endsWith('/start')) return res.end('OK');
    waiting.push(res);
    if (waiting.length === cycles) for (const r of waiting.splice(0)) r.end('OK');
  });
  beforeAll(async () => {
    sandbox = await startSandbox({ faults: [{ target: 'dyndns', kind: 'slow', delayMs: 150, remaining: Infinity }] });
    await new Promise<void>((resolve) => barrier.listen(0, '127.0.0.1', resolve));
    barrierUrl = `http://127.0.0.1:${(barrier.address() as AddressInfo).port}/ping`;
  });
  afterAll(async () => {
    await sandbox.close();
    barrier.closeAllConnections();
    barrier.close();
  });

  describe('the lock', () => {
    it(`${cycles} cycles started at once, ${rounds} times (every other one over a stale lock): exactly one sends`, {
      timeout: timeoutMs,
    }, async () => {
      const failures: string[] = [];
      for (let round = 0; round < rounds; round++) {
        const env = agentEnv(sandbox, { DDEDGE_PING_URL: barrierUrl, DDEDGE_TIMEOUT: '60s' });
        // Every other round starts over a lock whose owner is gone (as after kill -9).
        if (round % 2) writeFileSync(join(env.DDEDGE_STATE_DIR!, 'lock'), '999999999');
        const before = sandbox.calls.get('dyndns') ?? 0;
        const children = Array.from({ length: cycles }, () => startDist(['update', '--ip', '81.0.2.15'], env));
        const results = await Promise.all(children.map((c) => c.result));
        const sent = (sandbox.calls.get('dyndns') ?? 0) - before;
        const codes = results.map((r) => r.code);
        if (sent !== 1)
          failures.push(
            `round ${round}${round % 2 ? ' (stale lock)' : ''}: ${sent} requests; exit codes ${codes.join(',')}; ${results
              .map((r) => r.stderr)
              .join(' | ')
              .slice(0, 2000)}`,
          );
        // Each cycle either ran (sent, or found the record current) or was told the lock is busy
        // (exit 4; so is the sender, when the loaded machine makes its request fail).
        for (const r of results)
          if (r.code !== 0 && r.code !== 4) failures.push(`round ${round}: exit ${r.code}: ${r.stderr}`);
      }
      expect(failures).toEqual([]);
    });
  });
}
