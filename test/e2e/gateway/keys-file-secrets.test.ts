// Keys-file errors as a user sees them, with a canary secret in each shape a mistake takes:
// `ddedge gateway check-keys` (exit 2, file:line:column and what was expected) and the log line
// of a SIGHUP reload that fails (the old keys stay). No part of the canary is in either.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server.js';
import { baseEnv, runDist, startDist, tempDir, waitForOutput } from '../../helpers/cli.js';
import { CANARY, GOOD, leaksCanary, SHAPES } from '../../helpers/keys-secret-shapes.js';

describe('check-keys and a canary secret', () => {
  it('names file, line and column of each shape and shows no part of the secret (exit 2)', async () => {
    const file = join(tempDir(), 'gateway.keys');
    for (const shape of SHAPES) {
      writeFileSync(file, `${GOOD}${shape.line}\n`, { mode: 0o600 });
      const run = await runDist(['gateway', 'check-keys', file], baseEnv());
      expect(run.code, shape.name).toBe(2);
      expect(run.stderr, shape.name).toContain(`${file}:2:${shape.column}: `);
      expect(run.stderr, shape.name).toMatch(shape.expected);
      expect(leaksCanary(run.stdout + run.stderr, CANARY), run.stderr).toBe(false);
    }
  });
});

describe('a SIGHUP reload of a keys file holding a canary secret out of place', () => {
  let sandbox: Sandbox;
  let gateway: ReturnType<typeof startDist>;
  let stderr = '';
  const dir = tempDir();
  const keysFile = join(dir, 'gateway.keys');

  beforeAll(async () => {
    sandbox = await startSandbox({});
    writeFileSync(keysFile, `${GOOD}grant "k" zonesub;\n`, { mode: 0o600 });
    gateway = startDist(
      [
        'gateway',
        '--zone',
        'example.com',
        '--keys',
        keysFile,
        '--dns-listen',
        '127.0.0.1:0',
        '--state-dir',
        join(dir, 'state'),
      ],
      baseEnv({ DDEDGE_API_URL: sandbox.url, DDEDGE_API_USER: 'demo-user', DDEDGE_API_PASSWORD: 'demo-api-password' }),
    );
    gateway.stderr!.on('data', (d) => (stderr += d));
    await waitForOutput(gateway, 'stderr', (t) => /answering DNS .* on 127\.0\.0\.1:\d+/.test(t), 20_000);
  });

  afterAll(async () => {
    gateway?.kill('SIGTERM');
    await gateway?.result;
    await sandbox?.close();
  });

  it('logs file, line and column and what was expected, never the secret, for the nsupdate -y line and a quoted one', async () => {
    for (const shape of SHAPES.filter((s) =>
      /nsupdate -y|quoted secret as the algorithm|bare secret as a grant type/.test(s.name),
    )) {
      writeFileSync(keysFile, `${GOOD}${shape.line}\n`, { mode: 0o600 });
      const said = waitForOutput(gateway, 'stderr', (t) => /not reloaded.*\n/.test(t), 20_000);
      gateway.kill('SIGHUP');
      const line = (await said).split('\n').find((l) => /not reloaded/.test(l))!;
      expect(line, shape.name).toContain(`${keysFile}:2:${shape.column}: `);
      expect(line, shape.name).toMatch(shape.expected);
    }
    expect(leaksCanary(stderr, CANARY), stderr).toBe(false);
  });
});
