// Output through pipes, as a user's shell gives it: complete with a slow reader, and quiet
// (no stack, the command's exit code) when the reader leaves early as `| head` does.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, DIST, tempDir } from '../../helpers/cli.js';
import { startServer, type TestServer } from '../../helpers/servers.js';

const PAGES = 8;
let provider: TestServer;
beforeAll(async () => {
  // 8 pages of 100 contacts, about 530 KB of JSON in all: far more than a pipe holds.
  provider = await startServer((_req, res, body) => {
    const page = Number(new URLSearchParams(body).get('page') ?? 1);
    const contacts = Array.from({ length: 100 }, (_, i) => ({
      contactID: `C${page}-${i}`,
      name: `Contact ${page}-${i} `.padEnd(600, 'x'),
    }));
    res.end(
      JSON.stringify({
        success: true,
        errorCode: 0,
        errorCodeMsg: '',
        action: 'contact/list',
        version: '1.0.26',
        messages: [],
        responseData: { queryInfo: { page, pageLength: 100, results: 100, total: PAGES * 100 }, contacts },
      }),
    );
  });
});
afterAll(() => provider.close());

const apiEnv = () =>
  baseEnv({ DDEDGE_API_URL: provider.url, DDEDGE_API_USER: 'u', DDEDGE_API_PASSWORD: 'canary-pipe-password' });
const manyHosts = () =>
  baseEnv({
    DDEDGE_HOSTS: Array.from({ length: 800 }, (_, i) => `host-${i}.example.com`).join(','),
    DDEDGE_DYNDNS_USER: 'u',
    DDEDGE_DYNDNS_KEY: 'canary-pipe-key',
    DDEDGE_STATE_DIR: tempDir('ddedge-state-'),
  });

/** Runs the built file with stdout redirected to a file, as `> out.json` does. */
function toFile(args: string[], env: Record<string, string>): Promise<{ code: number | null; bytes: Buffer }> {
  const path = join(tempDir('ddedge-out-'), 'out');
  const fd = openSync(path, 'w');
  const child = spawn(process.execPath, [DIST, ...args], { env, stdio: ['ignore', fd, 'ignore'] });
  return new Promise((resolve) =>
    child.on('close', (code) => {
      closeSync(fd);
      resolve({ code, bytes: readFileSync(path) });
    }),
  );
}

/**
 * Runs it as `ddedge … | consumer` in bash, a real pipe (64 KiB), and gives the exit code of
 * ddedge (PIPESTATUS[0]) and what the consumer printed.
 */
function throughPipe(
  args: string[],
  env: Record<string, string>,
  consumer: string,
): Promise<{ code: number | null; bytes: Buffer; stderr: string }> {
  const script = `"$0" "$@" | ${consumer}; exit \${PIPESTATUS[0]}`;
  const child = spawn('bash', ['-c', script, process.execPath, DIST, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: Buffer[] = [];
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => chunks.push(c));
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, bytes: Buffer.concat(chunks), stderr })));
}
/** A consumer that starts reading late, so ddedge's writes wait on a full pipe. */
const SLOW_READER = '{ sleep 0.6; cat; }';

describe('output through a pipe', () => {
  it('api contact list --all is complete through a slow pipe, byte for byte as in a file', async () => {
    const file = await toFile(['api', 'contact', 'list', '--all'], apiEnv());
    expect(file.code).toBe(0);
    expect(file.bytes.length).toBeGreaterThan(400_000);
    const piped = await throughPipe(['api', 'contact', 'list', '--all'], apiEnv(), SLOW_READER);
    expect(piped.stderr).toBe('');
    expect(piped.code).toBe(0);
    expect(piped.bytes.length).toBe(file.bytes.length);
    expect(JSON.parse(piped.bytes.toString()).contacts).toHaveLength(PAGES * 100);
  });

  it('update --json with many hosts is complete through a slow pipe', async () => {
    const args = ['update', '--dry-run', '--json', '--ip', '81.0.2.15'];
    const file = await toFile(args, manyHosts());
    expect(file.bytes.length).toBeGreaterThan(65_536);
    const piped = await throughPipe(args, manyHosts(), SLOW_READER);
    expect(piped.stderr).toBe('');
    expect(piped.code).toBe(file.code);
    expect(piped.bytes.length).toBe(file.bytes.length);
    expect(JSON.parse(piped.bytes.toString()).hosts).toHaveLength(800);
  });

  it('a reader that leaves early (| head) is no error: no stack, the exit code of the command', async () => {
    const run = await throughPipe(['api', 'contact', 'list', '--all'], apiEnv(), 'head -c 10');
    expect(run.bytes.toString()).toBe('{"contacts');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  it.skipIf(!existsSync('/dev/full'))(
    'output that cannot be written (a full disk) is said on stderr, exit 4',
    async () => {
      const fd = openSync('/dev/full', 'w');
      const child = spawn(process.execPath, [DIST, 'api', '--help'], { env: baseEnv(), stdio: ['ignore', fd, 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (d) => (stderr += d));
      const code = await new Promise((resolve) => child.on('close', resolve));
      closeSync(fd);
      expect(stderr).toBe('ddedge: could not write the output: ENOSPC\n');
      expect(code).toBe(4);
    },
  );
});
