// zone apply as a session: one apply per zone at a time, a backup before the first change, the
// zone read back after it; after a lost answer, the report says what the provider holds.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFault } from '../../../../src/sandbox/faults.js';
import { acquireZoneLock } from '../../../../src/state/zone-lock.js';
import { tempDir } from '../../../helpers/cli.js';
import { useSandbox } from '../../../helpers/use-sandbox.js';
import { emptyZone, entryAdder, writeZone, zoneMain } from '../../../helpers/zone.js';

const sandbox = useSandbox();
const ZONE = 'apply.example';

function zoneFile(lines: string[]): string {
  return writeZone(`$ORIGIN ${ZONE}.\n${lines.join('\n')}\n`);
}

const held = (): string[] =>
  sandbox.model.services
    .find((s) => s.name === ZONE)!
    .dns.map((e) => `${e.name} ${e.type} ${e.value}`)
    .sort();

describe('zone apply', () => {
  it('writes a backup of the zone as it was, makes the changes, and reads back a zone that matches', async () => {
    const service = emptyZone(sandbox, ZONE);
    entryAdder(service)('1', `old.${ZONE}`, 'A', '192.0.2.1', '300');
    entryAdder(service)('2', `kept.${ZONE}`, 'A', '192.0.2.2', '300');
    const stateDir = tempDir('ddedge-zone-state-');
    const file = zoneFile(['kept 300 IN A 192.0.2.2', 'www 300 IN A 192.0.2.10', 'mail 300 IN A 192.0.2.11']);
    const run = await zoneMain(sandbox, ['apply', '--service', ZONE, '--json', file], { DDEDGE_STATE_DIR: stateDir });
    expect(run.code, run.stderr).toBe(0);
    expect(held()).toEqual([`kept.${ZONE} A 192.0.2.2`, `mail.${ZONE} A 192.0.2.11`, `www.${ZONE} A 192.0.2.10`]);
    const report = JSON.parse(run.stdout);
    expect(report.drift).toEqual([]);
    expect(readFileSync(report.backup, 'utf8')).toMatch(/^old\s+300\s+IN\s+A\s+192\.0\.2\.1$/m);

    const again = await zoneMain(sandbox, ['apply', '--service', ZONE, '--json', file], { DDEDGE_STATE_DIR: stateDir });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ changes: [], backup: null, calls: 0 });
  });

  it('after a lost answer, reads the zone again: every change held is exit 0, the loss said', async () => {
    emptyZone(sandbox, ZONE);
    sandbox.faults.push(parseFault('service/dnscreate=lost-answerx1'));
    const file = zoneFile(['a 300 IN A 192.0.2.21', 'b 300 IN A 192.0.2.22', 'c 300 IN A 192.0.2.23']);
    const run = await zoneMain(sandbox, ['apply', '--service', ZONE, '--method', 'calls', file], {
      DDEDGE_STATE_DIR: tempDir('ddedge-zone-state-'),
    });
    expect(sandbox.faults.at(-1)!.remaining).toBe(0);
    expect(held()).toHaveLength(3);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/the answer to a call was lost \(.*\); read again, the zone holds every change/);
  });

  it('waits for no other apply of the zone: a held lock stops it before any change', async () => {
    emptyZone(sandbox, ZONE);
    const stateDir = tempDir('ddedge-zone-state-');
    const lock = acquireZoneLock(stateDir, ZONE);
    try {
      const run = await zoneMain(sandbox, ['apply', '--service', ZONE, zoneFile(['www 300 IN A 192.0.2.10'])], {
        DDEDGE_STATE_DIR: stateDir,
      });
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(
        new RegExp(
          `another ddedge zone apply of ${ZONE.replace('.', '\\.')} \\(pid ${process.pid}\\) ` +
            'is running .*nothing was changed',
        ),
      );
      expect(held()).toEqual([]);
    } finally {
      lock.release();
    }
  });
});
