// ddedge sandbox: checks its flags before it listens (exit 2), then serves the demo account
// until SIGTERM or SIGINT, and exits 0.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../../../src/cli/main.js';
import type { Io } from '../../../../src/cli/io.js';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { baseEnv, HANG_BOUND_MS, tempDir } from '../../../helpers/cli.js';
import { freePort } from '../../../helpers/programs.js';

/** main()'s streams, read while the command runs (it runs until stopped). */
function collectingIo(): Io & { out: string; err: string } {
  const sink = { out: '', err: '' };
  return Object.assign(sink, {
    stdout: (text: string) => {
      sink.out += text;
    },
    stderr: (text: string) => {
      sink.err += text;
    },
    env: baseEnv(),
    cwd: tempDir('ddedge-cwd-'),
    isTTY: false,
  });
}

/** The stop signals' listeners the command added: called, as the signal would, and removed. */
function signalCommand(before: { SIGTERM: unknown[]; SIGINT: unknown[] }, signal: 'SIGTERM' | 'SIGINT'): void {
  for (const name of ['SIGTERM', 'SIGINT'] as const) {
    for (const listener of process.listeners(name).filter((l) => !before[name].includes(l))) {
      process.removeListener(name, listener);
      if (name === signal) (listener as () => void)();
    }
  }
}

describe('ddedge sandbox', () => {
  it.each([
    [['--port', '70000'], '--port: "70000" is not a port number'],
    [['--dns-port', '1x'], '--dns-port: "1x" is not a port number'],
    [['--tls-cert', '/nonexistent.pem'], '--tls-cert and --tls-key go together'],
    [['--plain-style', 'xml'], '--plain-style: "xml" is not update or ip'],
    [['--fault', 'nowhere=500'], 'nowhere'],
    [['--port', '0', '--data', '/nonexistent-dir/data.json'], 'its directory /nonexistent-dir does not exist'],
  ])('%j is refused before it listens (exit 2)', async (args, message) => {
    const io = collectingIo();
    expect(await main(['sandbox', ...args], io)).toBe(2);
    expect(io.err).toContain(message);
    expect(io.out).toBe('');
  });

  it('refuses --json with --print-env (one form of output), before it listens', async () => {
    const io = collectingIo();
    expect(await main(['sandbox', '--json', '--print-env'], io)).toBe(2);
    expect(io.out + io.err).toContain('--json and --print-env: choose one');
  });

  it('serves the demo account, says where (JSON), and stops on SIGTERM with exit 0', async () => {
    const io = collectingIo();
    const before = { SIGTERM: process.listeners('SIGTERM'), SIGINT: process.listeners('SIGINT') };
    const dataDir = tempDir('ddedge-sandbox-');
    mkdirSync(dataDir, { recursive: true });
    const exit = main(['sandbox', '--port', '0', '--json', '--data', join(dataDir, 'data.json')], io);
    await vi.waitFor(() => expect(io.out).toContain('\n'), { timeout: HANG_BOUND_MS, interval: 20 });
    const started = JSON.parse(io.out);
    expect(started).toMatchObject({
      apiUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      apiUser: expect.any(String),
      dyndnsKey: expect.any(String),
    });
    const answer = await fetch(`${started.apiUrl}/json/?hostname=home.example.com&myip=81.0.2.15`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${started.dyndnsUser}:${started.dyndnsKey}`).toString('base64')}`,
      },
    });
    expect(answer.status).toBe(200);
    signalCommand(before, 'SIGTERM');
    expect(await exit).toBe(0);
    expect(process.listeners('SIGINT')).toEqual(before.SIGINT);
    await expect(fetch(started.apiUrl)).rejects.toThrow();
  });

  it('lists the zones and the demo credentials in words, and stops on SIGINT', async () => {
    const io = collectingIo();
    const before = { SIGTERM: process.listeners('SIGTERM'), SIGINT: process.listeners('SIGINT') };
    const exit = main(
      [
        'sandbox',
        '--port',
        '0',
        '--fault',
        'dyndns=500',
        '--fault',
        'service/dnslist=502x2',
        '--fault',
        '*=slow:3000x1',
      ],
      io,
    );
    await vi.waitFor(() => expect(io.out).toContain('faults:'), { timeout: HANG_BOUND_MS, interval: 20 });
    expect(io.out).toMatch(
      /^ddedge sandbox listening on http:\/\/127\.0\.0\.1:\d+ \(demo account; nothing here is real\)\n/,
    );
    expect(io.out).toContain('zones:\n  example.com:\n');
    // Each fault as it was given: its delay and count decide what a client meets.
    expect(io.out).toContain('faults: dyndns=500, service/dnslist=502x2, *=slow:3000x1\n');
    signalCommand(before, 'SIGINT');
    expect(await exit).toBe(0);
  });

  /** What a shell that reads `lines` with `.` sees in the named variables. */
  function shellRead(lines: string, names: string[]): Record<string, string> {
    const file = join(tempDir('ddedge-sandbox-env-'), 'sandbox.env');
    writeFileSync(file, lines);
    const script = `set -eu; . "$1"; shift; for n in "$@"; do printf '%s=%s\\n' "$n" "\${!n}"; done`;
    const out = execFileSync('bash', ['-c', script, 'bash', file, ...names], { encoding: 'utf8', env: {} });
    return Object.fromEntries(
      out
        .trim()
        .split('\n')
        .map((line) => line.split(/=(.*)/s, 2) as [string, string]),
    );
  }

  it('picks free ports when not told, and prints them as lines a shell reads (--print-env)', async () => {
    const before = { SIGTERM: process.listeners('SIGTERM'), SIGINT: process.listeners('SIGINT') };
    // Two at once: neither may need a port the other holds (a fixed default would).
    const ios = [collectingIo(), collectingIo()];
    const exits = ios.map((io) => main(['sandbox', '--dns', '--print-env'], io));
    for (const io of ios) await vi.waitFor(() => expect(io.out).toContain('SANDBOX_PORT='), { timeout: HANG_BOUND_MS });
    const names = [
      'DDEDGE_API_URL',
      'DDEDGE_API_USER',
      'DDEDGE_API_PASSWORD',
      'DDEDGE_DYNDNS_URL',
      'DDEDGE_DYNDNS_USER',
    ];
    const read = ios.map((io) =>
      shellRead(io.out, [
        ...names,
        'DDEDGE_DYNDNS_KEY',
        'SANDBOX_HOST',
        'SANDBOX_PORT',
        'SANDBOX_DNS_PORT',
        'SANDBOX_DNS',
      ]),
    );
    for (const vars of read) {
      expect(vars.DDEDGE_API_URL).toBe(`http://127.0.0.1:${vars.SANDBOX_PORT}`);
      expect(vars.DDEDGE_DYNDNS_URL).toBe(vars.DDEDGE_API_URL);
      expect(vars).toMatchObject({ DDEDGE_API_USER: 'demo-user', SANDBOX_HOST: '127.0.0.1' });
      expect(vars.SANDBOX_DNS).toBe(`127.0.0.1:${vars.SANDBOX_DNS_PORT}`);
      expect(Number(vars.SANDBOX_DNS_PORT)).toBeGreaterThan(0);
      const answer = await fetch(`${vars.DDEDGE_DYNDNS_URL}/json/?hostname=home.example.com&myip=81.0.2.15`, {
        headers: {
          authorization: `Basic ${Buffer.from(`${vars.DDEDGE_DYNDNS_USER}:${vars.DDEDGE_DYNDNS_KEY}`).toString('base64')}`,
        },
      });
      expect(answer.status).toBe(200);
    }
    expect(read[0]!.SANDBOX_PORT).not.toBe(read[1]!.SANDBOX_PORT);
    // Only the settings are exported: the ports are the shell's, ddedge never reads them.
    expect(ios[0]!.out).toMatch(/^export DDEDGE_API_URL=/m);
    expect(ios[0]!.out).toMatch(/^SANDBOX_PORT=/m);
    expect(ios[0]!.out).not.toMatch(/^export SANDBOX_/m);
    // The line a script waits for comes last.
    expect(ios[0]!.out.trimEnd().split('\n').at(-1)).toMatch(/^SANDBOX_PORT='\d+'$/);
    signalCommand(before, 'SIGTERM');
    for (const exit of exits) expect(await exit).toBe(0);
  });

  it('listens on the ports it is told, exactly', async () => {
    const before = { SIGTERM: process.listeners('SIGTERM'), SIGINT: process.listeners('SIGINT') };
    const io = collectingIo();
    const [port, dnsPort] = [await freePort(), await freePort()];
    const exit = main(['sandbox', '--port', String(port), '--dns-port', String(dnsPort), '--print-env'], io);
    await vi.waitFor(() => expect(io.out).toContain('SANDBOX_PORT='), { timeout: HANG_BOUND_MS });
    expect(shellRead(io.out, ['DDEDGE_API_URL', 'SANDBOX_DNS_PORT'])).toEqual({
      DDEDGE_API_URL: `http://127.0.0.1:${port}`,
      SANDBOX_DNS_PORT: String(dnsPort),
    });
    signalCommand(before, 'SIGTERM');
    expect(await exit).toBe(0);
  });
});
