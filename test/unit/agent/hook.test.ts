// --on-change: a shell command per changed record, told what changed, never told a secret,
// bounded by its timeout; its failure is reported, never thrown.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookEnvironment, runHook } from '../../../src/agent/hook.js';
import type { Outcome } from '../../../src/agent/outcome.js';
import type { Logger } from '../../../src/lib/log.js';
import { registerSecret } from '../../../src/lib/redact.js';
import { tempDir } from '../../helpers/cli.js';

const outcome: Outcome = {
  host: 'home.example.com',
  type: 'A',
  address: '81.0.2.16',
  previous: '81.0.2.15',
  action: 'updated',
  via: 'dyndns',
  message: '',
} as Outcome;

function logger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    error: (m) => lines.push(`error ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    info: (m) => lines.push(`info ${m}`),
    debug: (m, f) => lines.push(`debug ${m} ${JSON.stringify(f ?? {})}`),
  };
}

describe('hookEnvironment', () => {
  it('says what changed, and withholds ddedge settings and anything named like a secret', () => {
    const env = hookEnvironment(
      { ...outcome, prefix: '2001:db8:1::/48' },
      {
        PATH: '/bin',
        LANG: 'C',
        DDEDGE_API_PASSWORD: 'x',
        MY_TOKEN: 'x',
        AWS_SECRET_ACCESS_KEY: 'x',
        db_password: 'x',
        UNDEFINED: undefined,
      },
    );
    expect(env).toEqual({
      PATH: '/bin',
      LANG: 'C',
      DDEDGE_HOST: 'home.example.com',
      DDEDGE_TYPE: 'A',
      DDEDGE_OLD_ADDRESS: '81.0.2.15',
      DDEDGE_NEW_ADDRESS: '81.0.2.16',
      DDEDGE_VIA: 'dyndns',
      DDEDGE_PREFIX: '2001:db8:1::/48',
    });
    expect(hookEnvironment({ ...outcome, previous: undefined }, {})).toMatchObject({
      DDEDGE_OLD_ADDRESS: '',
      DDEDGE_PREFIX: '',
    });
  });
});

describe('runHook', () => {
  it('runs the command with the change in its environment, and says it ran', async () => {
    const out = join(tempDir('ddedge-hook-'), 'seen');
    const log = logger();
    await runHook(`echo "$DDEDGE_HOST $DDEDGE_OLD_ADDRESS $DDEDGE_NEW_ADDRESS" > ${out}`, 30_000, outcome, log);
    expect(readFileSync(out, 'utf8')).toBe('home.example.com 81.0.2.15 81.0.2.16\n');
    expect(log.lines).toEqual(['info --on-change ran for home.example.com A']);
  });

  it("reports a failing command with its exit code and its output, ddedge's secrets masked", async () => {
    registerSecret('hunter2-secret');
    const log = logger();
    await runHook('echo "failed with password=hunter2-secret"; exit 3', 30_000, outcome, log);
    expect(log.lines[0]).toMatch(
      /^warn --on-change for home\.example\.com A failed \(exit 3\): failed with password=\S/,
    );
    expect(log.lines.join('\n')).not.toContain('hunter2-secret');
  });
});
