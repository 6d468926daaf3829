// main(): one place turns what a command throws into a message and an exit code.
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main.js';
import type { Io } from '../../../src/cli/io.js';

vi.mock('../../../src/cli/commands/status.js', () => ({
  run: async () => {
    throw new TypeError("Cannot read properties of undefined (reading 'canary-in-a-stack')");
  },
}));

function io(): Io & { out: string; err: string } {
  const sink = { out: '', err: '' };
  return Object.assign(sink, {
    stdout: (t: string) => {
      sink.out += t;
    },
    stderr: (t: string) => {
      sink.err += t;
    },
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
    expect(streams.err).toContain("update: unknown option '--nope'");
  });
});

describe('ddedge api --all on a terminal', () => {
  it('shows page progress on stderr and prints indented JSON on stdout', async () => {
    const { startServer } = await import('../../helpers/servers.js');
    const server = await startServer((_req, res, body) => {
      const page = Number(new URLSearchParams(body).get('page') ?? 1);
      res.end(
        JSON.stringify({
          success: true,
          errorCode: 0,
          errorCodeMsg: '',
          action: 'domain/list',
          version: '1.0.26',
          messages: [],
          responseData: {
            queryInfo: { page, pageLength: 1, results: 1, total: 3 },
            domains: [{ name: `d${page}.com` }],
          },
        }),
      );
    });
    const streams = io();
    streams.isTTY = true;
    streams.env = { DDEDGE_API_URL: server.url, DDEDGE_API_USER: 'u', DDEDGE_API_PASSWORD: 'p-123456' };
    expect(await main(['api', 'domain', 'list', '--all', '--pageLength', '1'], streams)).toBe(0);
    await server.close();
    expect(streams.err).toContain('\rpage 3: 3 of 3');
    expect(streams.out).toContain('\n  "domains": [');
  });
});
