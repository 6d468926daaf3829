// main(): one place turns what a command throws into a message and an exit code.
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/io.js';

vi.mock('../../src/cli/commands/status.js', () => ({
  run: async () => {
    throw new TypeError("Cannot read properties of undefined (reading 'canary-in-a-stack')");
  },
}));

function io(): Io & { out: string; err: string } {
  const sink = { out: '', err: '' };
  return Object.assign(sink, {
    stdout: (t: string) => void (sink.out += t),
    stderr: (t: string) => void (sink.err += t),
    env: {},
    cwd: '/',
    isTTY: false,
  });
}

describe('main', () => {
  it('an unexpected error is an internal error: exit 1, reported as a bug', async () => {
    const streams = io();
    expect(await main(['status'], streams)).toBe(1);
    expect(streams.err).toMatch(/^ddedge: internal error \(please report it\): TypeError/);
  });
  it('a usage error is exit 2 with the command named', async () => {
    const streams = io();
    expect(await main(['update', '--nope'], streams)).toBe(2);
    expect(streams.err).toContain("update: Unknown option '--nope'");
  });
});
