// An empty TXT record through a backup and its restore. The provider's API needs a value, so
// ddedge writes an empty TXT as the two characters "" and reads them back as empty (the
// gateway serves them so). A zone whose empty TXT the provider held as an empty value, backed
// up and restored with `zone apply`, must still answer an empty string to a DNS query, not the
// two quote characters: the sandbox's name server (the provider's, as the emulator gives it)
// asked with BIND's dig. The built dist/ddedge.mjs against the sandbox.
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeEach, describe, expect, it } from 'vitest';
import { withApi } from '../../helpers/agent-env.js';
import { baseEnv, runDist, tempDir } from '../../helpers/cli.js';
import { emptyZone, writeZone } from '../../helpers/zone.js';
import { useSandbox } from '../../helpers/use-sandbox.js';
import { requireTool } from '../../helpers/programs.js';

const ZONE = 'emptytxt.example';
const DIG = requireTool('dig', 'bind9-dnsutils');
const sandbox = useSandbox({ dnsPort: 0 });
beforeEach(async () => {
  const service = emptyZone(sandbox, ZONE);
  // As another tool (the provider's panel, a dnssetzone) leaves it: an empty value.
  service.dns.push({ entityID: '1', name: `empty.${ZONE}`, type: 'TXT', ttl: '-', priority: '-', value: '' });
  service.dns.push({ entityID: '2', name: `www.${ZONE}`, type: 'A', ttl: '-', priority: '-', value: '192.0.2.1' });
});

const txtStrings = async (name: string) =>
  (
    await promisify(execFile)(
      'dig',
      ['@127.0.0.1', '-p', String(sandbox.dnsPort), '+norec', '+short', '+time=3', '+tries=1', name, 'TXT'],
      { timeout: 10_000 },
    )
  ).stdout.trim();

describe('an empty TXT through zone backup and restore', () => {
  it.skipIf(!DIG)('answers an empty string after the restore, as before it', async () => {
    expect(await txtStrings(`empty.${ZONE}`)).toBe('""');
    const state = tempDir('ddedge-state-');
    const env = baseEnv({ ...withApi(sandbox), DDEDGE_STATE_DIR: state, DDEDGE_SERVICE: ZONE });
    const dropped = await runDist(['zone', 'apply', writeZone(`$ORIGIN ${ZONE}.\nwww A 192.0.2.1\n`), '--force'], env);
    expect(dropped.code, dropped.stderr).toBe(0);
    expect(await txtStrings(`empty.${ZONE}`)).toBe('');
    const dir = join(state, 'zone-backups', ZONE);
    const [backup] = readdirSync(dir);
    const restored = await runDist(['zone', 'apply', join(dir, backup!)], env);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain('create  empty IN TXT ""');
    // dig shows an empty string as "" and the two characters as "\"\"".
    expect(await txtStrings(`empty.${ZONE}`)).toBe('""');
    const plan = await runDist(['zone', 'plan', '--expect-no-changes', join(dir, backup!)], env);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
});
