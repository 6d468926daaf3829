// `-` as a file name means a standard stream, as in every Unix tool: `zone export --output -`
// writes to stdout, `zone plan -` and `zone apply -` read the zone from stdin. Through the built
// file, with real pipes.
import { execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { withApi } from '../../helpers/agent-env.js';
import { baseEnv, DIST, type RunResult, runDist, tempDir } from '../../helpers/cli.js';
import { emptyZone } from '../../helpers/zone.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const ZONE = 'streams.example';
const sandbox = useSandbox();
let stateDir: string;
beforeEach(() => {
  stateDir = tempDir('ddedge-state-');
  const service = emptyZone(sandbox, ZONE);
  service.dns.push({ entityID: '1', name: ZONE, type: 'A', ttl: '-', priority: '-', value: '192.0.2.1' });
  service.dns.push({ entityID: '2', name: `www.${ZONE}`, type: 'A', ttl: '300', priority: '-', value: '192.0.2.2' });
});
const env = () => baseEnv({ ...withApi(sandbox), DDEDGE_STATE_DIR: stateDir });
// The master file's first comment carries the time of the export.
const untimed = (text: string) => text.replace(/, \d{4}-\d\d-\d\dT[\d:.]+Z/, ', TIME');

describe('zone export --output -', () => {
  it('writes to standard output the same bytes as without --output, and no file named "-"', async () => {
    for (const format of ['bind', 'json']) {
      const cwd = tempDir('ddedge-cwd-');
      const plain = await runDist(['zone', 'export', '--service', ZONE, '--format', format], env(), cwd);
      const dashed = await runDist(
        ['zone', 'export', '--service', ZONE, '--format', format, '--output', '-'],
        env(),
        cwd,
      );
      expect(dashed.code, dashed.stderr).toBe(0);
      expect(untimed(dashed.stdout)).toBe(untimed(plain.stdout));
      expect(dashed.stdout).toContain('192.0.2.2');
      // Nothing written beside it either: no file named "-", no temporary file of an atomic write.
      expect(existsSync(join(cwd, '-'))).toBe(false);
      expect(readdirSync(cwd)).toEqual([]);
    }
  });
});

describe('zone export --output PATH that is no file', () => {
  it('a device, a FIFO or a symbolic link is refused and left as it was, never replaced by a file (/dev/null, /dev/stdout)', async () => {
    const cwd = tempDir('ddedge-cwd-');
    const fifo = join(cwd, 'pipe');
    execFileSync('mkfifo', [fifo]);
    symlinkSync(fifo, join(cwd, 'link'));
    // /dev/stdout with standard output sent to a file: a link to a regular file, which is not replaced either.
    writeFileSync(join(cwd, 'file'), 'kept\n');
    symlinkSync(join(cwd, 'file'), join(cwd, 'stdout'));
    for (const [output, what] of [
      ['pipe', 'a FIFO'],
      ['link', 'a symbolic link'],
      ['stdout', 'a symbolic link'],
    ]) {
      const run = await runDist(['zone', 'export', '--service', ZONE, '--output', output!], env(), cwd);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`--output: "${output}" is ${what}, not a file; nothing was written`);
      expect(lstatSync(fifo).isFIFO()).toBe(true);
      expect(lstatSync(join(cwd, 'link')).isSymbolicLink()).toBe(true);
      expect(lstatSync(join(cwd, 'stdout')).isSymbolicLink()).toBe(true);
    }
    expect(readFileSync(join(cwd, 'file'), 'utf8')).toBe('kept\n');
    expect(readdirSync(cwd).sort()).toEqual(['file', 'link', 'pipe', 'stdout']);
  });

  it('a path through a file (not a folder) is a usage error that says so, not an internal error', async () => {
    const cwd = tempDir('ddedge-cwd-');
    writeFileSync(join(cwd, 'README.md'), 'kept\n');
    const run = await runDist(['zone', 'export', '--service', ZONE, '--output', 'README.md/x.zone'], env(), cwd);
    expect(run.stderr).not.toContain('internal error');
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/README\.md\/x\.zone/);
    expect(readFileSync(join(cwd, 'README.md'), 'utf8')).toBe('kept\n');
  });
});

/** The built file with `input` piped to its standard input. */
function runDistWithInput(args: string[], input: string | Buffer, cwd = tempDir('ddedge-cwd-')): Promise<RunResult> {
  const child = spawn(process.execPath, [DIST, ...args], { env: env(), cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  // A command that stops reading early closes the pipe: that is its answer, not the test's failure.
  child.stdin.on('error', () => {});
  child.stdin.end(input);
  return new Promise((resolveResult) => child.on('close', (code) => resolveResult({ code, stdout, stderr })));
}

describe('zone plan - and zone apply -', () => {
  const wanted = `$ORIGIN ${ZONE}.\n@ IN A 192.0.2.1\nwww 300 IN A 192.0.2.2\nmail IN A 192.0.2.25\n`;

  it('plan - reads the zone from standard input (its $ORIGIN names the zone), never a file named "-"', async () => {
    const cwd = tempDir('ddedge-cwd-');
    writeFileSync(join(cwd, '-'), `$ORIGIN ${ZONE}.\n@ IN A 192.0.2.99\n`);
    const run = await runDistWithInput(['zone', 'plan', '-'], wanted, cwd);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/create\s+mail IN A 192\.0\.2\.25/);
    expect(run.stdout).not.toContain('192.0.2.99');
  });

  it('apply - applies the zone read from standard input (JSON, the zone from --service)', async () => {
    const json = JSON.stringify([
      { name: '@', type: 'A', ttl: null, priority: null, value: '192.0.2.1' },
      { name: 'www', type: 'A', ttl: 300, priority: null, value: '192.0.2.2' },
      { name: 'mail', type: 'A', ttl: null, priority: null, value: '192.0.2.25' },
    ]);
    const run = await runDistWithInput(['zone', 'apply', '--service', ZONE, '-'], json);
    expect(run.code, run.stderr).toBe(0);
    const dns = sandbox.model.services.find((s) => s.name === ZONE)!.dns;
    expect(dns.map((e) => `${e.name} ${e.value}`)).toContain(`mail.${ZONE} 192.0.2.25`);
  });

  it('errors in what standard input held are named "standard input", with line and column', async () => {
    const syntax = await runDistWithInput(['zone', 'plan', '-'], `$ORIGIN ${ZONE}.\nwww IN A not-an-address\n`);
    expect(syntax.code).toBe(2);
    expect(syntax.stderr).toMatch(/^ddedge: standard input:2:\d+: /m);
    const latin1 = Buffer.concat([
      Buffer.from(`$ORIGIN ${ZONE}.\nt IN TXT "caf`),
      Buffer.from([0xe9]),
      Buffer.from('"\n'),
    ]);
    const notUtf8 = await runDistWithInput(['zone', 'plan', '-'], latin1);
    expect(notUtf8.code).toBe(2);
    expect(notUtf8.stderr).toMatch(/^ddedge: standard input:2:14: a byte that is not UTF-8/m);
    expect(sandbox.calls.get('service/dnsupdate') ?? 0).toBe(0);
  });

  it('nothing at all from a pipe (its writer failed) is refused, not read as a zone whose every record goes', async () => {
    const held = () => sandbox.model.services.find((s) => s.name === ZONE)!.dns.map((e) => e.name);
    const before = held();
    const lists = sandbox.calls.get('service/dnslist') ?? 0;
    for (const args of [
      ['zone', 'plan', '-'],
      ['zone', 'apply', '--force', '--service', ZONE, '-'],
    ]) {
      const run = await runDistWithInput(args, '');
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(
        'standard input: nothing was read from the pipe (did the command that writes the zone fail?); nothing was ' +
          'planned. A zone of no records is a file that holds its $ORIGIN alone',
      );
    }
    expect(sandbox.calls.get('service/dnslist') ?? 0).toBe(lists);
    expect(held()).toEqual(before);
    expect(before).toHaveLength(2);
  });

  it('a standard input that is /dev/null (as a closed one is), a device or a folder is refused, nothing sent', async () => {
    for (const [path, what] of [
      ['/dev/null', 'a device'],
      ['/dev/zero', 'a device'],
      [tempDir('ddedge-folder-'), 'a folder'],
    ]) {
      const fd = openSync(path!, 'r');
      try {
        const run = await new Promise<{ code: number | null; stderr: string }>((resolveRun) => {
          const child = spawn(process.execPath, [DIST, 'zone', 'apply', '--force', '--service', ZONE, '-'], {
            env: env(),
            stdio: [fd, 'ignore', 'pipe'],
          });
          let stderr = '';
          child.stderr!.on('data', (d) => (stderr += d));
          child.on('close', (code) => resolveRun({ code, stderr }));
        });
        expect(run.code, run.stderr).toBe(2);
        expect(run.stderr).toContain(`standard input: ${what}, not a zone file`);
      } finally {
        closeSync(fd);
      }
    }
    expect(sandbox.calls.get('service/dnsupdate') ?? 0).toBe(0);
    expect(sandbox.calls.get('service/dnsdelete') ?? 0).toBe(0);
  });
});
