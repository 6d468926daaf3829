// The --on-change hook's timeout runs on the clock the cycle gives it: a hook that never ends
// is stopped, with whatever it left in its process group, when that clock says so.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHook } from '../../../src/agent/hook.js';
import type { Outcome } from '../../../src/agent/outcome.js';
import { createLogger } from '../../../src/lib/log.js';
import { tempDir } from '../../helpers/cli.js';
import { FakeClock, until } from '../../helpers/fake-clock.js';

const outcome: Outcome = {
  host: 'home.example.com',
  type: 'A',
  address: '81.0.2.15',
  action: 'updated',
  via: 'dyndns',
  message: 'set',
};

function capture() {
  const lines: string[] = [];
  return { lines, logger: createLogger({ level: 'info', format: 'text', write: (l) => lines.push(l) }) };
}

describe('--on-change', () => {
  it('is stopped at its timeout on the clock it is given, not before', async () => {
    const started = join(tempDir('ddedge-hook-'), 'started');
    const clock = new FakeClock();
    const { lines, logger } = capture();
    let settled = false;
    const run = runHook(`touch '${started}'; sleep 777`, 60_000, outcome, logger, clock).finally(
      () => (settled = true),
    );
    await until(() => existsSync(started));
    await clock.advanceAsync(59_999);
    expect(settled).toBe(false);
    await clock.advanceAsync(1);
    await run;
    expect(lines.join('')).toMatch(/--on-change for home\.example\.com A was stopped after 60000 ms/);
  });

  it('reports a hook that ends by itself at once, the clock standing still, and leaves nothing waiting on it', async () => {
    const clock = new FakeClock();
    const { lines, logger } = capture();
    await runHook('exit 3', 60_000, outcome, logger, clock);
    expect(lines.join('')).toMatch(/--on-change for home\.example\.com A failed \(exit 3\)/);
    expect(clock.pending).toBe(0);
  });
});
