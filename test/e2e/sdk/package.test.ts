// The SDK as a TypeScript user installs it: the package copied into a
// project's node_modules without undici, docs/sdk-and-api.md's example compiled under `strict` with
// `skipLibCheck: false`, run as the page says against the sandbox (a trial found it replaced the
// zone: its writes are now shown, not called), and `require('ddedge')` from CommonJS.
import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/use-sandbox.js';
import { sandboxShellLines } from '../../../src/sandbox/shell-env.js';

const root = resolve(import.meta.dirname, '../../..');
let project: string;

beforeAll(() => {
  project = tempDir('ddedge-consumer-');
  const installed = join(project, 'node_modules', 'ddedge');
  mkdirSync(installed, { recursive: true });
  copyFileSync(join(root, 'package.json'), join(installed, 'package.json'));
  cpSync(join(root, 'dist'), join(installed, 'dist'), { recursive: true });
  mkdirSync(join(project, 'node_modules', '@types'));
  symlinkSync(join(root, 'node_modules', '@types', 'node'), join(project, 'node_modules', '@types', 'node'));
});

describe('the SDK from a project that installed ddedge', () => {
  const sandbox = useSandbox();
  const readme = () => readFileSync(join(root, 'docs/sdk-and-api.md'), 'utf8');
  const example = () => /```js\n(import \{ Registrar[\s\S]*?)```/.exec(readme())![1]!;

  it("runs the SDK page's example against the sandbox as the page says, and it changes nothing", async () => {
    const before = JSON.stringify(sandbox.model.services);
    const domains = sandbox.model.domains.length;
    writeFileSync(join(project, 'example.mjs'), example());
    // The page's block's line that runs the example, run by a shell in the folder where the sandbox wrote its file.
    const line = /^(\. \.\/sandbox\.env && node example\.mjs)$/m.exec(readme())![1]!;
    writeFileSync(join(project, 'sandbox.env'), sandboxShellLines(sandbox));
    // Not spawnSync: the sandbox answers from this process.
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        'bash',
        ['-c', line],
        { cwd: project, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: project }, timeout: 60_000 },
        (error, stdout, stderr) =>
          resolve({ status: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
      child.stdin?.end();
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/records\n/);
    expect(run.stdout).toMatch(/2008 not-found/);
    expect(JSON.stringify(sandbox.model.services)).toBe(before);
    expect(sandbox.model.domains).toHaveLength(domains);
  });

  it("compiles the SDK page's example under strict, without skipLibCheck and without undici", () => {
    const example = () => /```js\n(import \{ Registrar[\s\S]*?)```/.exec(readme())![1]!;
    writeFileSync(join(project, 'example.mts'), example());
    const compilerOptions = {
      strict: true,
      skipLibCheck: false,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      noEmit: true,
      types: ['node'],
    };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['example.mts'] }));
    const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], {
      encoding: 'utf8',
    });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });

  // Node's require of an ES module: 20.19+, 22.12+ (docs/sdk-and-api.md says so, and how 20.18 imports it).
  it.skipIf(!(process.features as { require_module?: boolean }).require_module)("require('ddedge') loads it", () => {
    writeFileSync(
      join(project, 'use.cjs'),
      "const { Registrar, ApiError } = require('ddedge');\nconsole.log(typeof Registrar, typeof ApiError);\n",
    );
    const run = spawnSync(process.execPath, ['use.cjs'], { cwd: project, encoding: 'utf8' });
    expect(run.stderr).not.toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
    expect(run).toMatchObject({ status: 0, stdout: 'function function\n' });
  });
});
