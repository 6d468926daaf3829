// ddedge sandbox: checks its flags before it listens (exit 2), then serves the demo account
// until SIGTERM or SIGINT, and exits 0.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../../../src/cli/main.js';
import type { Io } from '../../../../src/cli/io.js';
import { baseEnv, HANG_BOUND_MS, tempDir } from '../../../helpers/cli.js';

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
});
