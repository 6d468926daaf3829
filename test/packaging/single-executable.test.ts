// The single executables (packaging/sea.mjs): Node.js inside, nothing to install. The x64 one
// runs the demo's cycle, `api`, `zone plan` and the sandbox with no Node.js on PATH; the arm64
// one runs under qemu-user-static (Debian), with the arm64 C libraries of Debian's cross
// packages, as it would on a Raspberry Pi.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { readmeRecipe, runRecipe } from '../helpers/readme-recipes.js';
import { artefact, BIN, nodelessEnv, ROOT, run, sandbox, sandboxEnv } from './helpers.js';
import { requireTool } from '../helpers/programs.js';

const X64 = join(BIN, 'ddedge-linux-x64');
const ARM64 = join(BIN, 'ddedge-linux-arm64');
const HOW = 'npm run build:binaries';
const VERSION = (
  JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string }
).version;
const hasX64 = process.arch === 'x64' && artefact(X64, HOW);

describe('the single executables', () => {
  it.skipIf(!artefact(join(BIN, 'SHA256SUMS'), HOW))('come with their SHA-256 sums', () => {
    const sums = readFileSync(join(BIN, 'SHA256SUMS'), 'utf8').trim().split('\n');
    const names = readdirSync(BIN).filter((name) => name.startsWith('ddedge-'));
    expect(names.sort()).toEqual(['ddedge-linux-arm64', 'ddedge-linux-x64']);
    expect(sums.map((line) => line.split('  ')[1]).sort()).toEqual(names);
    for (const line of sums) {
      const [sum, name] = line.split('  ') as [string, string];
      expect(
        createHash('sha256')
          .update(readFileSync(join(BIN, name)))
          .digest('hex'),
        name,
      ).toBe(sum);
    }
  });
});

describe.skipIf(!hasX64)('ddedge-linux-x64 with no Node.js on PATH', () => {
  it('prints its version and help', async () => {
    const version = await run([X64, '--version'], nodelessEnv());
    expect([version.code, version.stdout, version.stderr]).toEqual([0, `${VERSION}\n`, '']);
    const help = await run([X64, 'update', '--help'], nodelessEnv());
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/ddedge update/);
  });

  it('serves the sandbox and runs the demo cycle, `api` and `zone plan` against it', async () => {
    const box = await sandbox([X64], nodelessEnv());
    try {
      const env = nodelessEnv(sandboxEnv(box));
      const first = await run([X64, 'update', '--ip', '81.0.2.15'], env);
      expect([first.code, first.stdout]).toEqual([0, 'home.example.com A 81.0.2.15 updated\n']);
      const second = await run([X64, 'update', '--ip', '81.0.2.15'], env);
      expect([second.code, second.stdout]).toEqual([0, 'home.example.com A 81.0.2.15 unchanged\n']);
      const status = await run([X64, 'status'], env);
      expect(status.code).toBe(0);
      expect(status.stdout).toContain('81.0.2.15');

      const api = await run(
        [X64, 'api', 'service', 'dnslist', '--serviceName', 'example.com', '--filterType', 'A'],
        env,
      );
      expect(api.code, api.stderr).toBe(0);
      const records = JSON.stringify(JSON.parse(api.stdout));
      expect(records).toContain('81.0.2.15');

      const zone = join(tempDir('ddedge-zone-'), 'example.com.zone');
      const exported = await run([X64, 'zone', 'export', '--service', 'example.com', '--output', zone], env);
      expect(exported.code, exported.stderr).toBe(0);
      writeFileSync(zone, `${readFileSync(zone, 'utf8')}sea-test 300 IN TXT "from the single executable"\n`);
      const plan = await run([X64, 'zone', 'plan', zone, '--service', 'example.com'], env);
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stdout).toMatch(/1 to create, 0 to update, 0 to delete/);
      expect(plan.stdout).toMatch(/create\s+sea-test 300 IN TXT "from the single executable"/);
    } finally {
      expect(await box.stop()).toBe(0);
    }
  });

  it('carries the code cache its own Node made: a cycle writes no cache of its own', async () => {
    const env = nodelessEnv({
      DDEDGE_HOSTS: 'home.example.com',
      DDEDGE_DYNDNS_USER: 'u',
      DDEDGE_DYNDNS_KEY: 'k',
      DDEDGE_STATE_DIR: tempDir(),
    });
    const cycle = await run([X64, 'update', '--ip', '81.0.2.15', '--dry-run'], env);
    expect([cycle.code, cycle.stdout, cycle.stderr]).toEqual([0, 'home.example.com A 81.0.2.15 would-update\n', '']);
    // The launcher saves a cache only for chunks it found none for (bootstrap/launcher.ts).
    expect(readdirSync(join(env.HOME!, '.cache'))).toEqual([]);
    // A command the build's cycle did not run makes its own cache, as a Node install does.
    expect((await run([X64, '--help'], env)).code).toBe(0);
    expect(readdirSync(join(env.HOME!, '.cache'))).toEqual(['ddedge']);
  });

  it("keeps its own code cache beside an npm copy's on the same machine: neither removes the other's", async () => {
    // Each runs its own Node; each took the other's folder for a stale Node's and removed it.
    const env = nodelessEnv();
    const npmCopy = [process.execPath, join(ROOT, 'dist', 'ddedge.mjs')];
    for (const command of [[X64], npmCopy, [X64], npmCopy])
      expect((await run([...command, '--help'], env)).code).toBe(0);
    const folders = readdirSync(join(env.HOME!, '.cache', 'ddedge')).sort();
    expect(folders).toEqual([expect.stringMatching(/^sea-v\d+\.\d+\.\d+-x64$/), `${process.version}-${process.arch}`]);
    for (const folder of folders)
      expect(readdirSync(join(env.HOME!, '.cache', 'ddedge', folder)).length).toBeGreaterThan(0);
  });
});

const qemu = 'qemu-aarch64-static';
const cross = '/usr/aarch64-linux-gnu';
const hasArm64 =
  artefact(ARM64, HOW) &&
  requireTool(qemu, 'qemu-user-static') &&
  artefact(
    join(cross, 'lib', 'libstdc++.so.6'),
    'apt-get install libc6-arm64-cross libstdc++6-arm64-cross libgcc-s1-arm64-cross libatomic1-arm64-cross',
  );

describe.skipIf(!hasArm64)('ddedge-linux-arm64 under qemu-user-static', () => {
  // qemu's -L gives the emulated program the arm64 C libraries; `qemu` is on the test's PATH
  // only through its absolute path: no Node.js either.
  const qemuPath = (process.env.PATH ?? '')
    .split(':')
    .map((dir) => join(dir, qemu))
    .find((file) => {
      try {
        return readFileSync(file).length > 0;
      } catch {
        return false;
      }
    })!;
  const arm64 = [qemuPath, '-L', cross, ARM64];

  it('prints its version', async () => {
    const version = await run([...arm64, '--version'], nodelessEnv(), 300_000);
    expect([version.code, version.stdout, version.stderr]).toEqual([0, `${VERSION}\n`, '']);
  });

  it("prints its version run as docs/development.md's recipe runs it (qemu's -L, then QEMU_LD_PREFIX)", async () => {
    const recipe = await runRecipe(readmeRecipe('arm64-qemu'), {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: tempDir() },
      timeoutMs: 600_000,
    });
    expect([recipe.code, recipe.output]).toEqual([0, `${VERSION}\n${VERSION}\n`]);
  });

  it('runs `update --dry-run` against the sandbox', async () => {
    const box = await sandbox([X64], nodelessEnv());
    try {
      const env = nodelessEnv(sandboxEnv(box));
      const dry = await run([...arm64, 'update', '--ip', '81.0.2.15', '--dry-run'], env, 300_000);
      expect([dry.code, dry.stdout, dry.stderr]).toEqual([0, 'home.example.com A 81.0.2.15 would-update\n', '']);
    } finally {
      await box.stop();
    }
  });
});
