// zone apply holds its zone on the machine, not only in its state directory: while another
// process holds the zone of the same account (as an apply with another --state-dir does), an
// apply changes nothing and names that process (exit 4); once it has let go, the apply runs.
// The holder is a real process (test/helpers/zone-lock-holder.ts); the test waits for its word,
// never for a time.
import { type ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../helpers/cli.js';
import { useSandbox } from '../../../helpers/use-sandbox.js';
import { emptyZone, writeZone, zoneMain } from '../../../helpers/zone.js';

const sandbox = useSandbox();
const ZONE = 'machine-lock.example';
let script: string;

beforeAll(async () => {
  script = join(tempDir(), 'zone-lock-holder.mjs');
  await build({
    entryPoints: [resolve(import.meta.dirname, '../../../helpers/zone-lock-holder.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: script,
    logLevel: 'silent',
  });
});

/** Starts a holder of the zone's lock for `account`; resolves once it holds it. */
function holder(account: string): Promise<ChildProcess> {
  return new Promise((resolveHeld, reject) => {
    const child = spawn(process.execPath, [script, account, ZONE], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolveHeld(child);
    });
    child.stderr!.on('data', (d) => (err += d));
    child.on('close', (code) => reject(new Error(`the holder exited ${code} before it held the lock: ${err}`)));
  });
}

const exited = (child: ChildProcess) => new Promise((r) => child.on('close', r));

describe('zone apply and the machine-wide lock of its zone', () => {
  it('another process holding the zone of this account: nothing changed, its pid named; then the apply runs', async () => {
    emptyZone(sandbox, ZONE);
    const file = writeZone(`$ORIGIN ${ZONE}.\nwww 300 IN A 192.0.2.10\n`);
    // As the settings read the URL (with its trailing slash).
    const account = `${new URL(sandbox.url).href}\n${sandbox.model.account.apiUser}`;
    const other = await holder(account);
    const lists = sandbox.calls.get('service/dnslist') ?? 0;
    const run = await zoneMain(sandbox, ['apply', '--service', ZONE, file], {
      DDEDGE_STATE_DIR: tempDir('ddedge-zone-state-'),
    });
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(
      new RegExp(
        `another ddedge zone apply of machine-lock\\.example \\(pid ${other.pid}\\) is running .*nothing was changed`,
      ),
    );
    expect(sandbox.calls.get('service/dnslist') ?? 0).toBe(lists);

    other.stdin!.end();
    await exited(other);
    const after = await zoneMain(sandbox, ['apply', '--service', ZONE, file], {
      DDEDGE_STATE_DIR: tempDir('ddedge-zone-state-'),
    });
    expect(after.code, after.stderr).toBe(0);
  });

  it('a holder of the same zone of another account does not hold this one', async () => {
    emptyZone(sandbox, ZONE);
    const file = writeZone(`$ORIGIN ${ZONE}.\nwww 300 IN A 192.0.2.10\n`);
    const other = await holder(`${sandbox.url}\nsomeone-else`);
    try {
      const run = await zoneMain(sandbox, ['apply', '--service', ZONE, file], {
        DDEDGE_STATE_DIR: tempDir('ddedge-zone-state-'),
      });
      expect(run.code, run.stderr).toBe(0);
    } finally {
      other.stdin!.end();
      await exited(other);
    }
  });
});
