// Zone files read as BIND reads them (users bring files written for BIND), through the built
// dist/ddedge.mjs against the sandbox: what reaches the provider, what comes back in an export,
// and what is refused before anything is sent or created.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { withApi } from '../../helpers/agent-env.js';
import { baseEnv, runDist, runMain, tempDir } from '../../helpers/cli.js';
import { emptyZone, soaAndNs, writeZone } from '../../helpers/zone.js';
import { requireTool } from '../../helpers/programs.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const ZONE = 'reader.example';
const checkzone = requireTool('named-checkzone', 'bind9-utils');
const sandbox = useSandbox();
let root: string;
let stateDir: string;
beforeEach(async () => {
  root = tempDir('ddedge-root-');
  stateDir = join(root, 'deep', 'state');
  mkdirSync(stateDir, { recursive: true });
  emptyZone(sandbox, ZONE).dns.push({
    entityID: '1',
    name: ZONE,
    type: 'A',
    ttl: '-',
    priority: '-',
    value: '192.0.2.1',
  });
});

const env = (extra: Record<string, string> = {}) =>
  baseEnv({ ...withApi(sandbox), DDEDGE_STATE_DIR: stateDir, ...extra });
const writes = () =>
  [...sandbox.calls.entries()].filter(([k]) => k !== 'service/dnslist').reduce((n, [, v]) => n + v, 0);
const held = (name: string) =>
  sandbox.model.services.find((s) => s.name === ZONE)!.dns.find((e) => e.name === name)?.value;

/** The TXT data BIND loads from a master file of this zone, as it prints it. */
function bindTxt(body: string): string[] {
  const out = execFileSync(checkzone!, ['-q', '-D', '-o', '-', ZONE, writeZone(soaAndNs(ZONE) + body)], {
    encoding: 'latin1',
  });
  return out
    .split('\n')
    .filter((l) => /\sTXT\s/.test(l))
    .map((l) => l.replace(/\s+/g, ' '));
}

describe('a carriage return and $ORIGIN', () => {
  it('"; text\\r$ORIGIN ../../x" is a comment: no zone is chosen from it, nothing is created outside the state directory', async () => {
    const run = await runMain(['zone', 'apply', writeZone('; text\r$ORIGIN ../../x\n'), '--force'], env());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/which zone\? give --service NAME/);
    expect(readdirSync(root)).toEqual(['deep']);
    expect(readdirSync(join(root, 'deep'))).toEqual(['state']);
    expect(readdirSync(stateDir)).toEqual([]);
    expect(writes()).toBe(0);
  });

  it('a $ORIGIN that is a path is exit 2 naming its position, before any directory is made', async () => {
    const run = await runMain(['zone', 'apply', writeZone('$ORIGIN ../../x\n@ A 192.0.2.1\n'), '--force'], env());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /zone\.txt:1:9: \$ORIGIN "\.\.\/\.\.\/x" cannot name the zone: "\.\.\/\.\.\/x\." is not a host name/,
    );
    expect(readdirSync(root)).toEqual(['deep']);
    expect(readdirSync(stateDir)).toEqual([]);
    expect(writes()).toBe(0);
  });
});

describe('TXT bytes of 128 and more', () => {
  it('survive apply, the provider and export exactly: the same bytes for BIND, no U+FFFD, and the export plans to no change', async () => {
    const body = 'bin TXT "\\200\\255abc\\"q\\""\ntext TXT "caf\\195\\169"\n';
    const applied = await runDist(
      ['zone', 'apply', writeZone(`$ORIGIN ${ZONE}.\n@ A 192.0.2.1\n${body}`)],
      env({ DDEDGE_SERVICE: ZONE }),
    );
    expect(applied.code, applied.stderr).toBe(0);
    expect(held(`bin.${ZONE}`)).toBe('"\\200\\255abc\\"q\\""');
    expect(held(`text.${ZONE}`)).toBe('café');

    const exported = await runDist(['zone', 'export'], env({ DDEDGE_SERVICE: ZONE }));
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).not.toContain('\uFFFD');
    const lines = exported.stdout.split('\n').map((l) => l.replace(/\s+/g, ' '));
    expect(lines).toEqual(expect.arrayContaining(['bin IN TXT "\\200\\255abc\\"q\\""', 'text IN TXT "café"']));
    if (checkzone) expect(bindTxt(exported.stdout.replace(/^\$ORIGIN.*\n/m, ''))).toEqual(bindTxt(body));

    const planned = await runMain(
      ['zone', 'plan', writeZone(exported.stdout), '--json'],
      env({ DDEDGE_SERVICE: ZONE }),
    );
    expect(planned.code, planned.stderr).toBe(0);
    expect(JSON.parse(planned.stdout).changes).toEqual([]);
  });
});

describe('a file with several problems', () => {
  it('is exit 2 listing each with file:line:col, nothing sent, no backup', async () => {
    const file = writeZone(
      `$ORIGIN ${ZONE}.\n@ A 192.0.2.1\nwww\\.dot A 192.0.2.2\n\\@ A 192.0.2.3\nok A 192.0.2.4\nbad A 1.2.3\n`,
    );
    const run = await runMain(['zone', 'apply', file, '--force'], env({ DDEDGE_SERVICE: ZONE }));
    expect(run.code).toBe(2);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^ddedge: \S*zone\.txt:3:1: "www\\\.dot" has a label holding a dot/);
    expect(lines[1]).toMatch(/^\S*zone\.txt:4:1: "\\@" has a label holding "@"/);
    expect(lines[2]).toMatch(/^\S*zone\.txt:6:7: "1\.2\.3" is not an IPv4 address/);
    expect(writes()).toBe(0);
    expect(existsSync(join(stateDir, 'zone-backups'))).toBe(false);
    expect(held(`ok.${ZONE}`)).toBeUndefined();
  });
});
