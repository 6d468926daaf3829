// A gateway that cannot start says why, and only that: the advice about --primary-name (given
// when the machine's name has no dot) is for a gateway that runs, and printed before a fatal
// error it buried the error under a warning the user need not act on yet.
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keygenText } from '../../../src/gateway/keys/keygen.js';
import { tempDir } from '../../helpers/cli.js';
import { spawnGateway } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox({ port: 0, per: 'file' });

const keysFile = (): string => {
  const file = join(tempDir(), 'keys');
  writeFileSync(
    file,
    `${keygenText('acme.example.com', 'hmac-sha256')}grant "acme.example.com" wildcard *.example.com TXT;\n`,
    { mode: 0o600 },
  );
  return file;
};

// Only a machine whose name has no dot gets the warning at all.
describe.skipIf(hostname().includes('.'))(
  'a gateway that stops at start (no --primary-name given, a bare host name)',
  () => {
    it.each([
      [
        'a missing keys file',
        () => ({ keysFile: join(tempDir(), 'no-such-keys'), zone: 'example.com' }),
        'demo-api-password',
        /keys/,
      ],
      ['a wrong API password', () => ({ keysFile: keysFile(), zone: 'example.com' }), 'not-the-password', /error 1004/],
      [
        'a zone the account does not hold',
        () => ({ keysFile: keysFile(), zone: 'example.org' }),
        'demo-api-password',
        /--zone example\.org/,
      ],
    ])('%s: the error, and no --primary-name warning', async (_what, where, password, error) => {
      const run = await spawnGateway({
        apiUrl: sandbox.url,
        ...where(),
        stateDir: tempDir(),
        primaryName: null,
        env: { DDEDGE_API_PASSWORD: password },
      }).result;
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(error);
      expect(run.stderr).not.toContain('--primary-name');
    });
  },
);
