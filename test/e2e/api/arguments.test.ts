// `ddedge api` arguments as a user types them: values that begin with "-" (PEM, negative
// numbers, "-all"), @FILE and @- for values, key material never repeated in a message, and
// names that only objects have ("toString") refused like any unknown parameter. The built file
// runs the first value and reads standard input; the other checks run main() in this process.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCsr } from '../../../src/sandbox/csr.js';
import { withApi } from '../../helpers/agent-env.js';
import { baseEnv, DIST, runDist, runMain, type RunResult, tempDir } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox({ per: 'file' });
const env = () => baseEnv(withApi(sandbox));
const calls = () => [...sandbox.calls.values()].reduce((a, b) => a + b, 0);
const { csrData, csrKey } = createCsr({
  commonName: 'www.example.com',
  organizationName: 'Example',
  organizationalUnitName: 'IT',
  countryName: 'ES',
  stateOrProvinceName: 'Madrid',
  localityName: 'Madrid',
  emailAddress: 'admin@example.com',
});
/** Lines of the key that must never be seen again (its base64 body). */
const keyLines = () => csrKey.split('\n').filter((l) => l && !l.startsWith('-----'));
const expectNoKey = (text: string) => {
  for (const line of keyLines()) expect(text).not.toContain(line);
  expect(text).not.toContain('PRIVATE KEY');
};

/** Runs the built file with `input` on its standard input. */
function runWithInput(args: string[], input: string): Promise<RunResult> {
  const child = spawn(process.execPath, [DIST, ...args], {
    env: env(),
    cwd: tempDir(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  child.stdin.end(input);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('values that begin with "-"', () => {
  it('a PEM CSR after --csrData is its value (ssl csrdecode)', async () => {
    const run = await runDist(['api', 'ssl', 'csrdecode', '--csrData', csrData], env());
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ commonName: 'www.example.com' });
  });

  it('a TXT value "-all" is the value of --value', async () => {
    const run = await runMain(
      [
        'api',
        'service',
        'dnscreate',
        '--serviceName',
        'example.com',
        '--name',
        'spf.example.com',
        '--type',
        'TXT',
        '--value',
        '-all',
      ],
      env(),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(sandbox.model.services.flatMap((s) => s.dns).find((e) => e.name === 'spf.example.com')?.value).toBe('-all');
  });

  it('a negative number is a value, checked as one (exit 2, nothing sent)', async () => {
    const before = calls();
    const run = await runMain(['api', 'domain', 'list', '--pageLength', '-5'], env());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"pageLength" (argument 4) must be at least 1');
    expect(run.stderr).not.toContain('unknown parameter');
    expect(calls()).toBe(before);
  });

  it('a parameter at the end with no value is a usage error naming it', async () => {
    expect(await runMain(['api', 'ssl', 'csrdecode', '--csrData'], env())).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--csrData (argument 4) needs a value'),
    });
  });
});

describe('@FILE and @- read a value', () => {
  it('--csrData @FILE reads the file', async () => {
    const file = join(tempDir(), 'req.csr');
    writeFileSync(file, csrData);
    const run = await runMain(['api', 'ssl', 'csrdecode', '--csrData', `@${file}`], env());
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ commonName: 'www.example.com' });
  });

  it('--csrData=@- reads standard input', async () => {
    const run = await runWithInput(['api', 'ssl', 'csrdecode', '--csrData=@-'], csrData);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ commonName: 'www.example.com' });
  });

  it('@@ is a literal @; a missing file is exit 2 naming the parameter and the file', async () => {
    const run = await runMain(
      [
        'api',
        'service',
        'dnscreate',
        '--serviceName',
        'example.com',
        '--name',
        'at.example.com',
        '--type',
        'TXT',
        '--value',
        '@@home',
      ],
      env(),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(sandbox.model.services.flatMap((s) => s.dns).find((e) => e.name === 'at.example.com')?.value).toBe('@home');
    const missing = await runMain(['api', 'ssl', 'csrdecode', '--csrData', '@/nonexistent/req.csr'], env());
    expect(missing).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--csrData (argument 4): cannot read the file "/nonexistent/req.csr": ENOENT'),
    });
  });

  it('two parameters cannot both read standard input', async () => {
    const run = await runWithInput(['api', 'ssl', 'csrdecode', '--csrData', '@-', '--keyData', '@-'], csrData);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('both read standard input');
  });
});

describe('key material is never repeated in a message', () => {
  const cases: [string, string[]][] = [
    [
      'a key given to a whole-number parameter',
      ['api', 'ssl', 'reissue', '--certificateID', csrKey, '--csrData', csrData, '--validationMethod', 'dns'],
    ],
    ['a key given without its flag', ['api', 'ssl', 'csrdecode', '--csrData', csrData, csrKey]],
    ['a key in place of the action', ['api', 'ssl', csrKey]],
    ['a key in place of the module', ['api', csrKey, 'x']],
    ['a key to a mistyped parameter', ['api', 'ssl', 'csrdecode', '--csrData', csrData, '--keyDta', csrKey]],
    [
      'a key given twice',
      [
        'api',
        'ssl',
        'reissue',
        '--certificateID',
        '1',
        '--csrData',
        csrData,
        '--keyData',
        csrKey,
        '--keyData',
        csrKey,
        '--validationMethod',
        'dns',
      ],
    ],
    ['a key after an unknown flag', ['api', 'ssl', 'csrdecode', '--csrData', csrData, '--keyData=', '--x', csrKey]],
  ];
  it.each(cases)('%s: exit 2, the parameter and its position named, not its value', async (_name, args) => {
    const run = await runMain(args, env());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^ddedge: /);
    expectNoKey(run.stdout + run.stderr);
  });

  it('names the position of the offending parameter', async () => {
    const run = await runMain(cases[0]![1], env());
    expect(run.stderr).toContain('"certificateID" (argument 4) must be a whole number');
    const stray = await runMain(cases[1]![1], env());
    expect(stray.stderr).toContain('argument 6 is not a parameter name');
  });
});

describe('names that only JavaScript objects have', () => {
  it.each(['toString', 'constructor', 'hasOwnProperty', 'valueOf'])(
    '--%s is an unknown parameter (exit 2, nothing sent)',
    async (name) => {
      const before = calls();
      const run = await runMain(['api', 'tool', 'hello', `--${name}`, 'x'], env());
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`unknown parameter "${name}" (argument 4)`);
      expect(calls()).toBe(before);
    },
  );

  it('--__proto__ is refused too', async () => {
    expect((await runMain(['api', 'tool', 'hello', '--__proto__', 'x'], env())).code).toBe(2);
  });
});
