// The DNS-PERSIST-01 record is the user's to `zone`: export writes it (quoted, a long one split into
// strings of at most 255 bytes), and applying the export changes nothing: no write, the records as
// they were. The long record, served by the sandbox's name server as several strings, is joined
// as a CA joins them (--check). The built dist/ddedge.mjs against the sandbox.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeEach, describe, expect, it } from 'vitest';
import { withApi } from '../../helpers/agent-env.js';
import { baseEnv, runDist, tempDir } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/use-sandbox.js';
import { emptyZone } from '../../helpers/zone.js';
import { requireTool } from '../../helpers/programs.js';

const ZONE = 'persist.example';
const NAME = `_validation-persist.${ZONE}`;
const LONG_ACCOUNT = `https://ca.example/acme/acct/${'7'.repeat(300)}`;
const RECORDS = [
  'letsencrypt.org; accounturi=https://acme.example/acme/acct/1; policy=wildcard; persistUntil=1830297600',
  `ca.example; accounturi=${LONG_ACCOUNT}`,
  'v=spf1 -all',
];
const DIG = requireTool('dig', 'bind9-dnsutils');
const sandbox = useSandbox({ dnsPort: 0 });
beforeEach(() => {
  const service = emptyZone(sandbox, ZONE);
  for (const [i, value] of RECORDS.entries())
    service.dns.push({ entityID: String(i + 1), name: NAME, type: 'TXT', ttl: '-', priority: '-', value });
  service.dns.push({ entityID: '9', name: `www.${ZONE}`, type: 'A', ttl: '-', priority: '-', value: '192.0.2.1' });
});

const heldValues = () =>
  sandbox.model.services
    .find((s) => s.name === ZONE)!
    .dns.filter((e) => e.name === NAME)
    .map((e) => e.value);

describe('the DNS-PERSIST-01 record through zone export and apply', () => {
  it('is exported as written and kept untouched by applying the export', async () => {
    const env = baseEnv({ ...withApi(sandbox), DDEDGE_STATE_DIR: tempDir('ddedge-state-'), DDEDGE_SERVICE: ZONE });
    const out = join(tempDir('ddedge-zone-'), 'zone.txt');
    const exported = await runDist(['zone', 'export', '--output', out], env);
    expect(exported.code, exported.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain(`"${RECORDS[0]}"`);
    // 330 bytes: a first string of 255, then the rest.
    const long = `ca.example; accounturi=${LONG_ACCOUNT}`;
    expect(text).toContain(`"${long.slice(0, 255)}" "${long.slice(255)}"`);

    sandbox.calls.clear();
    const plan = await runDist(['zone', 'plan', '--expect-no-changes', out], env);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    const applied = await runDist(['zone', 'apply', out], env);
    expect(applied.code, applied.stderr).toBe(0);
    expect([...sandbox.calls.keys()].filter((call) => call !== 'service/dnslist')).toEqual([]);
    expect(heldValues()).toEqual(RECORDS);

    const check = await runDist(
      ['acme', 'persist', ZONE, '--issuer', 'ca.example', '--account-uri', LONG_ACCOUNT, '--check', '--json'],
      { ...env, DDEDGE_DNS_SERVERS: `127.0.0.1:${sandbox.dnsPort}` },
    );
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(JSON.parse(check.stdout).servers[0].records).toContain(long);
  });

  it.skipIf(!DIG)("is served as the zone file's strings, which --check joins", async () => {
    const { stdout } = await promisify(execFile)(
      'dig',
      ['@127.0.0.1', '-p', String(sandbox.dnsPort), '+norec', '+short', '+time=3', '+tries=1', NAME, 'TXT'],
      { timeout: 10_000 },
    );
    const long = `ca.example; accounturi=${LONG_ACCOUNT}`;
    expect(stdout).toContain(`"${long.slice(0, 255)}" "${long.slice(255)}"`);
  });
});
