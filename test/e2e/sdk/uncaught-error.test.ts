// An SDK user's script that does not catch an ApiError: Node prints the line that threw before
// the error. From a minified dist/sdk.mjs that line was the whole bundle (252 kB lines: 59 kB
// of code on stderr before the message), and the hint named the command line's variables,
// which an SDK user never set.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIST, tempDir } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const SDK = join(dirname(DIST), 'sdk.mjs');
const WRONG_PASSWORD = 'wrong-5ecret-Kq27p';

const sandbox = useSandbox({ per: 'file' });

function runScript(text: string, nodeOptions: string[] = []): Promise<{ code: number | null; stderr: string }> {
  const file = join(tempDir('ddedge-sdk-script-'), 'script.mjs');
  writeFileSync(file, text);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...nodeOptions, file],
      { env: { PATH: process.env.PATH ?? '' }, timeout: 60_000 },
      (error, _stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr }),
    );
  });
}

describe('an ApiError the caller does not catch', () => {
  const script = () =>
    [
      `import { Registrar } from ${JSON.stringify(SDK)};`,
      `const registrar = new Registrar({ url: ${JSON.stringify(sandbox.url)}, user: 'nobody-here', password: ${JSON.stringify(WRONG_PASSWORD)} });`,
      `await registrar.account.info();`,
    ].join('\n');

  it.each([
    ['plainly', []],
    ['with --enable-source-maps', ['--enable-source-maps']],
  ])(
    'is reported in a few lines (%s), with a hint naming the options of new Registrar(), not the variables of the command line',
    async (_how, options) => {
      const run = await runScript(script(), options);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/ApiError: account\/info failed with error \d+/);
      expect(Buffer.byteLength(run.stderr)).toBeLessThan(4096);
      expect(run.stderr).toMatch(/check the user and password given to new Registrar\(\{ url, user, password \}\)/);
      expect(run.stderr).not.toContain('DDEDGE_API');
      expect(run.stderr).not.toContain(WRONG_PASSWORD);
      // No line as long as a minified bundle's.
      for (const line of run.stderr.split('\n')) expect(line.length).toBeLessThan(400);
    },
  );

  it('the hint names what the caller chose, when it chose its own (authAdvice)', async () => {
    const run = await runScript(
      script().replace("user: 'nobody-here',", "user: 'nobody-here', authAdvice: 'check the vault entry dd/api',"),
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('(check the vault entry dd/api)');
  });
});
