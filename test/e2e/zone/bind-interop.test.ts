// Interop with BIND: a zone written by named-compilezone (every name absolute, every TTL
// explicit, long TXT split, its own spacing) is read back by ddedge with no change to plan.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { withApi } from '../../helpers/agent-env.js';
import { baseEnv, runDist, tempDir } from '../../helpers/cli.js';
import { emptyZone, soaAndNs, writeZone } from '../../helpers/zone.js';
import { requireTool } from '../../helpers/programs.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const ZONE = 'interop.example';
const compilezone = requireTool('named-compilezone', 'bind9-utils');
const sandbox = useSandbox({ per: 'file' });

describe.skipIf(!compilezone)('named-compilezone', () => {
  it('a zone it writes is read back with no change', async () => {
    emptyZone(sandbox, ZONE);
    const env = baseEnv({ ...withApi(sandbox), DDEDGE_STATE_DIR: tempDir('ddedge-state-'), DDEDGE_SERVICE: ZONE });
    const source = writeZone(
      [
        `$ORIGIN ${ZONE}.`,
        '$TTL 3600',
        '@ A 192.0.2.1',
        '@ MX 10 mx.example.net.',
        '@ CAA 0 issue "letsencrypt.org"',
        '@ CAA 0 iodef "mailto:dns admin@example.net"',
        `@ TXT "v=spf1 include:_spf.example.net ~all"`,
        `long 300 TXT "${'a'.repeat(255)}" "${'b'.repeat(100)}"`,
        'quote TXT "say \\"hi\\"; a\\\\b"',
        '_sip._tcp SRV 10 60 5060 sip.example.net.',
        'bücher AAAA 2001:db8::1',
        '* CNAME @',
        'sub NS ns1.example.net.',
      ].join('\n') + '\n',
    );
    const applied = await runDist(['zone', 'apply', source], env);
    expect(applied.code, applied.stderr).toBe(0);
    // The provider's forms: full names in punycode, priority in its own field, SRV and CAA values, TXT unquoted.
    const held = sandbox.model.services
      .find((s) => s.name === ZONE)!
      .dns.map((e) => `${e.name} ${e.ttl} ${e.type} ${e.priority} ${e.value}`);
    expect(held).toEqual(
      expect.arrayContaining([
        `${ZONE} 3600 MX 10 mx.example.net`,
        `${ZONE} 3600 CAA - 0 iodef "mailto:dns admin@example.net"`,
        `_sip._tcp.${ZONE} 3600 SRV 10 60 5060 sip.example.net`,
        `long.${ZONE} 300 TXT - ${'a'.repeat(255)}${'b'.repeat(100)}`,
        `quote.${ZONE} 3600 TXT - say "hi"; a\\b`,
        `xn--bcher-kva.${ZONE} 3600 AAAA - 2001:db8::1`,
        `*.${ZONE} 3600 CNAME - ${ZONE}`,
      ]),
    );
    const exported = await runDist(['zone', 'export'], env);
    const input = writeZone(soaAndNs(ZONE) + exported.stdout);
    const output = join(tempDir(), 'compiled.zone');
    await promisify(execFile)(compilezone!, ['-o', output, ZONE, input]);
    const compiled = readFileSync(output, 'utf8');
    expect(compiled).toContain(`long.${ZONE}.`);
    const planned = await runDist(['zone', 'plan', output, '--json'], env);
    expect(planned.code, planned.stderr).toBe(0);
    const report = JSON.parse(planned.stdout);
    expect(report.changes).toEqual([]);
    expect(report.summary.unchanged).toBe(11);
    expect(report.kept.map((k: { type: string; reason: string }) => `${k.type} ${k.reason}`)).toEqual([
      'SOA in the file, left to the provider (SOA)',
      'NS in the file, left to the provider (apex NS)',
      'NS in the file, left to the provider (apex NS)',
    ]);
  });
});
