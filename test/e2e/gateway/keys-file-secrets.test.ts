// Keys-file errors as a user sees them, with a canary secret in each shape a mistake takes:
// `ddedge gateway check-keys` (exit 2, file:line:column and what was expected) and the log line
// of a SIGHUP reload that fails (the old keys stay). No part of the canary is in either.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, runDist, tempDir, waitForOutput } from '../../helpers/cli.js';
import { CANARY, GOOD, leaksCanary, SHAPES } from '../../helpers/keys-secret-shapes.js';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

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
  const sandbox = useSandbox({ per: 'file' });
  let gateway: GatewayProcess | undefined;
  const dir = tempDir();
  const keysFile = join(dir, 'gateway.keys');

  // A keys file of the test's own making (the canary's shapes), so the lower-level start.
  beforeAll(async () => {
    writeFileSync(keysFile, `${GOOD}grant "k" zonesub;\n`, { mode: 0o600 });
    gateway = await startGatewayProcess({
      apiUrl: sandbox.url,
      zone: 'example.com',
      keysFile,
      stateDir: join(dir, 'state'),
      primaryName: null,
    });
  });

  afterAll(async () => {
    expect(await gateway?.stop()).toBe(0);
  });

  it('logs file, line and column and what was expected, never the secret, for the nsupdate -y line and a quoted one', async () => {
    for (const shape of SHAPES.filter((s) =>
      /nsupdate -y|quoted secret as the algorithm|bare secret as a grant type/.test(s.name),
    )) {
      writeFileSync(keysFile, `${GOOD}${shape.line}\n`, { mode: 0o600 });
      const said = waitForOutput(gateway!.child, 'stderr', (t) => /not reloaded.*\n/.test(t));
      gateway!.child.kill('SIGHUP');
      const line = (await said).split('\n').find((l) => /not reloaded/.test(l))!;
      expect(line, shape.name).toContain(`${keysFile}:2:${shape.column}: `);
      expect(line, shape.name).toMatch(shape.expected);
    }
    expect(leaksCanary(gateway!.stderr(), CANARY), gateway!.stderr()).toBe(false);
  });
});
