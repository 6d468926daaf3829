// A setting's value is quoted in its problem, and values come from files and environments the
// user may not have read: each problem is one line with control characters escaped (an escape
// sequence must not reach the terminal, a newline must not forge a line) and bounded in length.
import { describe, expect, it } from 'vitest';
import { baseEnv, runMain } from '../../helpers/cli.js';

const ESC = '\x1b';

describe('problems that quote a hostile value', () => {
  it("the gateway's settings and the agent's: escapes shown escaped, one line each, a huge value cut", async () => {
    const run = await runMain(
      ['gateway', '--state-dir', '/nonexistent/state'],
      baseEnv({
        DDEDGE_API_URL: 'http://127.0.0.1:9',
        DDEDGE_API_USER: 'u',
        DDEDGE_API_PASSWORD: 'p',
        DDEDGE_GATEWAY_ZONES: 'example.com',
        DDEDGE_GATEWAY_KEYS_FILE: 'keys',
        DDEDGE_GATEWAY_REFRESH: `${ESC}]0;owned${'\x07'}`,
        DDEDGE_GATEWAY_MAX_CALLS_PER_HOUR: '1\nddedge: a forged line',
        DDEDGE_GATEWAY_HTTP_LISTEN: 'b'.repeat(100_000),
        DDEDGE_INTERVAL: `${ESC}[5m`,
      }),
    );
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).not.toContain(ESC);
    expect(run.stderr).toContain('DDEDGE_GATEWAY_REFRESH: "\\x1b]0;owned\\x07"');
    expect(run.stderr).not.toMatch(/^ddedge: a forged line/m);
    expect(run.stderr).toContain('"1\\nddedge: a forged line"');
    expect(run.stderr.length).toBeLessThan(5000);
  });

  it("a command's own flag: the same", async () => {
    const run = await runMain(
      [
        'update',
        '--host',
        'a.example.com',
        '--dyndns-user',
        'u',
        '--dyndns-key',
        'kkkkkkkk',
        '--interval',
        `${ESC}[5m`,
      ],
      baseEnv(),
    );
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('--interval: "\\x1b[5m" is not a duration');
  });
});
