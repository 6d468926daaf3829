// The gateway's --notify takes a secondary (HOST[:PORT]) or a notification URL, a secret. A URL
// mistyped so that it has no `scheme://` (`https:/…`, `ntfy:/…`) was read as a secondary and
// its refusal quoted it whole, token and all, from DDEDGE_GATEWAY_NOTIFY_FILE, the gateway-notify
// credential, the variable or the flag.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keygenText } from '../../../src/gateway/keys/keygen.js';
import { baseEnv, CANARY, runDist, tempDir } from '../../helpers/cli.js';

const MISTYPED = [`https:/hooks.slack.com/services/T0/B0/${CANARY}`, `ntfy:/ntfy.sh/${CANARY}`];

function gatewayEnv(dir: string, extra: Record<string, string>): Record<string, string> {
  const keys = join(dir, 'keys');
  writeFileSync(keys, `${keygenText('admin', 'hmac-sha256')}grant "admin" zonesub;\n`, { mode: 0o600 });
  return baseEnv({
    DDEDGE_API_URL: 'http://127.0.0.1:9',
    DDEDGE_API_USER: 'u',
    DDEDGE_API_PASSWORD: 'p',
    DDEDGE_GATEWAY_ZONES: 'example.com',
    DDEDGE_GATEWAY_KEYS_FILE: keys,
    ...extra,
  });
}

describe('a mistyped notification URL given to the gateway', () => {
  for (const url of MISTYPED) {
    it(`is refused (exit 2) without being shown, from each source: ${url.split(':')[0]}`, async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'notify'), `${url}\n`, { mode: 0o600 });
      const credentials = join(dir, 'credentials');
      mkdirSync(credentials);
      writeFileSync(join(credentials, 'gateway-notify'), `${url}\n`, { mode: 0o600 });
      const state = ['--state-dir', join(dir, 'state'), '--log-level', 'debug'];
      const runs = [
        await runDist(['gateway', ...state], gatewayEnv(dir, { DDEDGE_GATEWAY_NOTIFY_FILE: join(dir, 'notify') })),
        await runDist(['gateway', ...state], gatewayEnv(dir, { CREDENTIALS_DIRECTORY: credentials })),
        await runDist(['gateway', ...state], gatewayEnv(dir, { DDEDGE_GATEWAY_NOTIFY: url })),
        await runDist(['gateway', ...state, '--notify', url], gatewayEnv(dir, {})),
      ];
      for (const run of runs) {
        expect(run.code, run.stderr).toBe(2);
        expect(run.stderr).toContain('notification URL');
        expect(run.stderr + run.stdout).not.toContain(CANARY);
      }
    });
  }

  it('a secondary that is wrong is still named as written', async () => {
    const run = await runDist(
      ['gateway', '--state-dir', join(tempDir(), 'state')],
      gatewayEnv(tempDir(), { DDEDGE_GATEWAY_NOTIFY: 'ns2.example.com:99999' }),
    );
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('DDEDGE_GATEWAY_NOTIFY: "ns2.example.com:99999" has no valid port');
  });
});
