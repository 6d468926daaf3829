// The gateway's settings are rows of the one configuration table: every problem is reported in
// one run, a secret setting is also read from <VARIABLE>_FILE or a systemd credential, the
// gateway's own variables (DDEDGE_GATEWAY_HTTP_LISTEN, DDEDGE_GATEWAY_MAX_CALLS_PER_HOUR) keep a
// dotenv file shared with the daemon from deciding them, and `gateway --help` lists the table.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_SETTINGS, type Setting } from '../../../src/config/settings.js';
import { keygenText } from '../../../src/gateway/keys/keygen.js';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server.js';
import { baseEnv, runDist, runMain, startDist, tempDir, waitForOutput } from '../../helpers/cli.js';

const keysFile = (dir: string, name = 'keys'): string => {
  const file = join(dir, name);
  writeFileSync(file, `${keygenText('admin', 'hmac-sha256')}grant "admin" zonesub;\n`, { mode: 0o600 });
  return file;
};
/** Credentials for a provider that is never reached: every run below stops at its settings. */
const unreachable = { DDEDGE_API_URL: 'http://127.0.0.1:9', DDEDGE_API_USER: 'u', DDEDGE_API_PASSWORD: 'p' };

describe('gateway settings that are wrong', () => {
  it('are all reported in one run (exit 2), each named as it was given', async () => {
    const dir = tempDir();
    const run = await runDist(
      ['gateway', '--state-dir', join(dir, 'state')],
      baseEnv({
        ...unreachable,
        DDEDGE_GATEWAY_ZONES: 'example.com',
        DDEDGE_GATEWAY_KEYS_FILE: keysFile(dir),
        DDEDGE_GATEWAY_LISTEN: 'nowhere',
        DDEDGE_GATEWAY_REFRESH: 'soon',
        DDEDGE_GATEWAY_NOTIFY: '127.0.0.1:99999',
      }),
    );
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('invalid configuration:');
    expect(run.stderr).toMatch(/DDEDGE_GATEWAY_LISTEN: "nowhere" is not ADDR:PORT/);
    expect(run.stderr).toMatch(/DDEDGE_GATEWAY_REFRESH: "soon" is not a duration of 1s or more/);
    expect(run.stderr).toMatch(/DDEDGE_GATEWAY_NOTIFY: "127\.0\.0\.1:99999" has no valid port/);
  });

  it('a misspelled gateway variable is named with the one it is nearest to', async () => {
    const run = await runDist(
      ['gateway', '--state-dir', join(tempDir(), 'state')],
      baseEnv({ ...unreachable, DDEDGE_GATEWAY_ZONE: 'example.com' }),
    );
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('DDEDGE_GATEWAY_ZONE is set but is not a setting: did you mean DDEDGE_GATEWAY_ZONES?');
  });

  it('missing zones, keys and API credentials are said together', async () => {
    const run = await runDist(['gateway', '--state-dir', join(tempDir(), 'state')], baseEnv());
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('name the zones to serve');
    expect(run.stderr).toContain('give the keys file');
    expect(run.stderr).toContain('DDEDGE_API_USER');
  });
});

describe('a gateway setting from <VARIABLE>_FILE or a credential', () => {
  it('DDEDGE_GATEWAY_NOTIFY_FILE is read, and one that cannot be is exit 2 naming it', async () => {
    const dir = tempDir();
    const base = { ...unreachable, DDEDGE_GATEWAY_ZONES: 'example.com', DDEDGE_GATEWAY_KEYS_FILE: keysFile(dir) };
    const missing = await runDist(
      ['gateway', '--state-dir', join(dir, 'state')],
      baseEnv({ ...base, DDEDGE_GATEWAY_NOTIFY_FILE: join(dir, 'no-such-file') }),
    );
    expect(missing.code, missing.stderr).toBe(2);
    expect(missing.stderr).toMatch(/DDEDGE_GATEWAY_NOTIFY_FILE: cannot read ".*no-such-file": ENOENT/);
    writeFileSync(join(dir, 'notify'), 'bogus://nowhere.example\n', { mode: 0o600 });
    const both = await runDist(
      ['gateway', '--state-dir', join(dir, 'state')],
      baseEnv({ ...base, DDEDGE_GATEWAY_NOTIFY: '127.0.0.1:5300', DDEDGE_GATEWAY_NOTIFY_FILE: join(dir, 'notify') }),
    );
    expect(both.code, both.stderr).toBe(2);
    expect(both.stderr).toContain('both DDEDGE_GATEWAY_NOTIFY and DDEDGE_GATEWAY_NOTIFY_FILE are set; keep one');
  });

  it('the gateway-notify credential is read as DDEDGE_GATEWAY_NOTIFY would be, and its problems name it', async () => {
    const dir = tempDir();
    const credentials = join(dir, 'credentials');
    mkdirSync(credentials);
    writeFileSync(join(credentials, 'gateway-notify'), 'bogus://nowhere.example\n', { mode: 0o600 });
    keysFile(credentials, 'gateway-keys');
    const run = await runDist(
      ['gateway', '--state-dir', join(dir, 'state')],
      baseEnv({ ...unreachable, DDEDGE_GATEWAY_ZONES: 'example.com', CREDENTIALS_DIRECTORY: credentials }),
    );
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/credential gateway-notify: .*bogus/);
  });
});

describe('a gateway that starts', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  afterAll(() => sandbox.close());

  it("takes its keys from the credential, its notification URL from DDEDGE_GATEWAY_NOTIFY_FILE, and its own budget over the agent's", async () => {
    const dir = tempDir();
    const credentials = join(dir, 'credentials');
    mkdirSync(credentials);
    keysFile(credentials, 'gateway-keys');
    writeFileSync(join(dir, 'notify'), 'http://127.0.0.1:9/gateway-events\n', { mode: 0o600 });
    const gateway = startDist(
      ['gateway', '--state-dir', join(dir, 'state')],
      baseEnv({
        DDEDGE_API_URL: sandbox.url,
        DDEDGE_API_USER: 'demo-user',
        DDEDGE_API_PASSWORD: 'demo-api-password',
        CREDENTIALS_DIRECTORY: credentials,
        DDEDGE_GATEWAY_ZONES: 'example.com',
        DDEDGE_GATEWAY_LISTEN: '127.0.0.1:0',
        DDEDGE_GATEWAY_PRIMARY_NAME: 'gw.example.com',
        DDEDGE_GATEWAY_NOTIFY_FILE: join(dir, 'notify'),
        // A dotenv file shared with the agent sets the agent's budget; the gateway's own wins.
        DDEDGE_MAX_CALLS_PER_HOUR: '60',
        DDEDGE_GATEWAY_MAX_CALLS_PER_HOUR: '70',
      }),
    );
    try {
      const log = await waitForOutput(gateway, 'stderr', (t) => t.includes('answering DNS'));
      expect(log).toContain('at most 70 provider calls an hour');
      expect(log).toMatch(/notifications of refused-update bursts and zones changed elsewhere to .*127\.0\.0\.1/);
      expect(log).not.toContain('gateway-events');
    } finally {
      gateway.kill('SIGTERM');
      await gateway.result;
    }
  });
});

describe('gateway --help', () => {
  it("lists every setting of the gateway's table with its variable, its file and its credential", async () => {
    const run = await runMain(['gateway', '--help'], baseEnv());
    expect(run.code, run.stderr).toBe(0);
    const text = run.stdout.replace(/\s+/g, ' ');
    for (const setting of Object.values(GATEWAY_SETTINGS) as Setting[]) {
      expect(text).toContain(`--${setting.flag} `);
      expect(text).toContain(setting.env!);
      if (setting.credential) expect(text).toContain(`credential ${setting.credential}`);
    }
    expect(text).toContain('DDEDGE_GATEWAY_NOTIFY_FILE');
    expect(text).toContain('DDEDGE_GATEWAY_HTTP_LISTEN');
  });
});
