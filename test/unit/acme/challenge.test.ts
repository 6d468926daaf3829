// An ACME challenge: present adds the value once and waits until the zone's name server shows
// it; cleanup removes exactly that value; both remember what ddedge made in the state directory.
import { describe, expect, it } from 'vitest';
import { acmeEnv, challengeValues } from '../../helpers/acme.js';
import { runMain } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const NAME = '_acme-challenge.www.example.com';
const VALUE = 'gfj9Xq-bB1rPpU0vTyvDBKpDqsm9dTHSpg9_5xJX0zk';
const OTHER = 'a-value-another-client-made-aaaaaaaaaaaaaaaa';

const sandbox = useSandbox({ dnsPort: 0 });

describe('acme present and cleanup', () => {
  it('adds the value, sees it on the name server, leaves other values, and removes only its own', async () => {
    const env = acmeEnv(sandbox, {
      DDEDGE_DNS_SERVERS: `127.0.0.1:${sandbox.dnsPort}`,
      DDEDGE_PROPAGATION_TIMEOUT: '20s',
    });
    const other = await runMain(['acme', 'present', NAME, OTHER, '--no-wait', '--json'], env);
    expect(other.code, other.stderr).toBe(0);

    const present = await runMain(['acme', 'present', NAME, VALUE, '--json'], env);
    expect(present.code, present.stderr).toBe(0);
    expect(JSON.parse(present.stdout)).toMatchObject({
      name: NAME,
      value: VALUE,
      service: 'example.com',
      action: 'created',
      otherValues: 1,
      visibleOn: [`127.0.0.1:${sandbox.dnsPort}`],
    });
    expect(challengeValues(sandbox, NAME).sort()).toEqual([OTHER, VALUE].sort());

    const again = await runMain(['acme', 'present', NAME, VALUE, '--no-wait', '--json'], env);
    expect(JSON.parse(again.stdout)).toMatchObject({ action: 'present', otherValues: 1, visibleOn: [] });
    expect(challengeValues(sandbox, NAME)).toHaveLength(2);

    const cleanup = await runMain(['acme', 'cleanup', NAME, VALUE, '--json'], env);
    expect(cleanup.code, cleanup.stderr).toBe(0);
    expect(JSON.parse(cleanup.stdout)).toMatchObject({ name: NAME, value: VALUE, action: 'deleted', otherValues: 1 });
    expect(challengeValues(sandbox, NAME)).toEqual([OTHER]);

    const absent = await runMain(['acme', 'cleanup', NAME, VALUE, '--json'], env);
    expect(JSON.parse(absent.stdout)).toMatchObject({ action: 'absent', otherValues: 1 });
  });

  it('says to name the service when the registered domain is no hosting service of the account (exit 7)', async () => {
    const result = await runMain(
      ['acme', 'present', '_acme-challenge.www.not-in-account.com', VALUE, '--no-wait'],
      acmeEnv(sandbox),
    );
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('no hosting service not-in-account.com in this account');
    expect(result.stderr).toContain('--service');
  });
});
