// The SDK as a TypeScript user installs it (issue 19, item 11): the package copied into a
// project's node_modules without undici, the README's example compiled under `strict` with
// `skipLibCheck: false`, and `require('ddedge')` from CommonJS.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';

const root = resolve(import.meta.dirname, '../..');
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
  it("compiles the README's example under strict, without skipLibCheck and without undici", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const example = /```js\n(import \{ Registrar[\s\S]*?)```/.exec(readme)![1]!;
    writeFileSync(join(project, 'example.mts'), example);
    const compilerOptions = { strict: true, skipLibCheck: false, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noEmit: true, types: ['node'] };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['example.mts'] }));
    const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], { encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });

  // Node's require of an ES module: 20.19+, 22.12+ (README says so, and how 20.18 imports it).
  it.skipIf(!(process.features as { require_module?: boolean }).require_module)("require('ddedge') loads it", () => {
    writeFileSync(join(project, 'use.cjs'), "const { Registrar, ApiError } = require('ddedge');\nconsole.log(typeof Registrar, typeof ApiError);\n");
    const run = spawnSync(process.execPath, ['use.cjs'], { cwd: project, encoding: 'utf8' });
    expect(run.stderr).not.toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
    expect(run).toMatchObject({ status: 0, stdout: 'function function\n' });
  });
});
