// `ddedge acme persist` in-process (main) against the sandbox and its name server: what it prints
// for each outcome, and that --check, which only reads DNS, needs no API credentials.
import { describe, expect, it } from 'vitest';
import { acmeEnv } from '../../../helpers/acme.js';
import { baseEnv, runMain, tempDir } from '../../../helpers/cli.js';
import { useSandbox } from '../../../helpers/use-sandbox.js';

const sandbox = useSandbox({ dnsPort: 0 });
const NAME = '_validation-persist.www.example.com';
const ACCOUNT = 'https://ca.example/acme/acct/7';

describe('acme persist (in-process)', () => {
  it('says what it did, what the CA would decide and why not', async () => {
    const env = acmeEnv(sandbox, { DDEDGE_DNS_SERVERS: `127.0.0.1:${sandbox.dnsPort}` });
    const persist = (...args: string[]) => runMain(['acme', 'persist', 'www.example.com', ...args], env);
    const keep = ['--issuer', 'ca.example', '--account-uri', ACCOUNT];
    expect((await persist(...keep)).stdout).toBe(`${NAME} TXT "ca.example; accounturi=${ACCOUNT}" added (no expiry)\n`);
    expect((await persist(...keep)).stdout).toBe(
      `${NAME} TXT "ca.example; accounturi=${ACCOUNT}" already there; nothing written (no expiry)\n`,
    );
    expect((await persist(...keep, '--until', '2030-01-01')).stdout).toContain(
      'replaced (valid until 2030-01-01T00:00:00Z)',
    );

    const noCredentials = baseEnv({
      DDEDGE_STATE_DIR: tempDir('ddedge-state-'),
      DDEDGE_DNS_SERVERS: `127.0.0.1:${sandbox.dnsPort}`,
    });
    const wildcard = await runMain(
      ['acme', 'persist', 'www.example.com', '--issuer', 'ca.example', '--wildcard', '--check'],
      noCredentials,
    );
    expect(wildcard.code, wildcard.stderr).toBe(8);
    expect(wildcard.stdout).toBe(
      `${NAME}: ca.example would not accept this record\n  127.0.0.1:${sandbox.dnsPort}: not valid: no ` +
        'policy=wildcard: the record is not valid for a wildcard or a name below the domain\n',
    );
    const plain = await runMain(
      ['acme', 'persist', 'www.example.com', '--issuer', 'ca.example', '--check'],
      noCredentials,
    );
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain(`valid for account ${ACCOUNT}, the domain only, until 2030-01-01T00:00:00Z`);

    expect((await persist('--issuer', 'ca.example', '--remove')).stdout).toBe(`${NAME} TXT for ca.example removed\n`);
    expect((await persist('--issuer', 'ca.example', '--remove')).stdout).toBe(
      `${NAME} TXT for ca.example absent; nothing to remove\n`,
    );
    const extra = await persist('--issuer', 'ca.example', '--remove', '--until', '30d');
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain('--until has no meaning with --remove');
  });

  it('names every flag that has no meaning with --remove or --check at once', async () => {
    const env = acmeEnv(sandbox);
    const keep = ['--issuer', 'ca.example', '--account-uri', ACCOUNT, '--wildcard', '--until', '30d'];
    const remove = await runMain(['acme', 'persist', 'www.example.com', ...keep, '--remove'], env);
    expect(remove.code).toBe(2);
    expect(remove.stderr).toContain('--account-uri, --wildcard and --until have no meaning with --remove');
    const check = await runMain(['acme', 'persist', 'www.example.com', ...keep, '--check'], env);
    expect(check.code).toBe(2);
    expect(check.stderr).toContain('--until has no meaning with --check');
  });
});
