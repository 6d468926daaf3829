// A keys file mounted from a Kubernetes secret is a chain of links (keys.conf -> ..data/keys.conf,
// ..data -> ..2026_12_02_05_00_00.1/): the built file's check-keys reads it through them, and
// judges the file they end at (a mode others may read is refused as it is for the file itself).
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keygenText } from '../../../src/gateway/keys/keygen.js';
import { baseEnv, runDist, tempDir } from '../../helpers/cli.js';

/** A secret volume's layout, the keys file in it of `mode`; the path a pod is given. */
function secretVolume(mode: number): string {
  const dir = tempDir('ddedge-secret-volume-');
  const version = join(dir, '..2026_12_02_05_00_00.1');
  mkdirSync(version);
  writeFileSync(join(version, 'keys.conf'), `${keygenText('router', 'hmac-sha256')}grant "router" zonesub A;\n`);
  chmodSync(join(version, 'keys.conf'), mode);
  symlinkSync('..2026_12_02_05_00_00.1', join(dir, '..data'));
  symlinkSync('..data/keys.conf', join(dir, 'keys.conf'));
  return join(dir, 'keys.conf');
}

describe('a keys file in a Kubernetes secret volume', () => {
  it('is read through its links (defaultMode 0400)', async () => {
    const run = await runDist(['gateway', 'check-keys', secretVolume(0o400)], baseEnv());
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout + run.stderr).toMatch(/router/);
  });

  it("is refused when the volume's mode lets others read it (defaultMode 0644), naming the path given", async () => {
    const path = secretVolume(0o644);
    const run = await runDist(['gateway', 'check-keys', path], baseEnv());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--keys: "${path}" can be read by other users (mode 0644)`);
  });
});
