// `ddedge <command> --help` is short: what that command reads and its own options, then a
// pointer to `ddedge --help` for the rest (it printed 130 to 150 lines: every setting of every
// command, the environment table and the exit codes).
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../../src/config/settings.js';
import { baseEnv, runMain } from '../helpers/cli.js';

const help = async (...args: string[]) => {
  const run = await runMain([...args, '--help'], baseEnv());
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
};

describe('<command> --help', () => {
  it.each([
    ['update', 60, ['--host', '--dyndns-key', '--api-password', '--via', '--ttl', '--ip-source', '--max-age', '--dry-run', '--force', 'DDEDGE_HOSTS'], ['--interval', '--listen', '--propagation-timeout', '--dns-server', 'Exit codes']],
    ['ip', 30, ['--ip-source', '--quorum', '--ip6-source', '--timeout', '--json'], ['--dyndns-key', '--host', '--max-age', '--api-password']],
    ['zone', 45, ['--api-user', '--service', '--ignore', '--keep-unlisted', '--format'], ['--dyndns-key', '--ip-source', '--quorum', '--interval']],
    ['health', 25, ['--max-age', '--healthy-within', 'DDEDGE_HEALTH_MAX_AGE', '--state-dir'], ['--dyndns-key', '--ip-source', 'DDEDGE_MAX_AGE]']],
    ['acme', 35, ['--dns-server', '--propagation-timeout', '--api-password', '--no-wait', '--any-name'], ['--dyndns-key', '--ip-source', '--quorum']],
  ])('%s --help: at most %i lines, what it reads, and a pointer to ddedge --help', async (command, lines, present, absent) => {
    const text = await help(command);
    expect(text.split('\n').length).toBeLessThanOrEqual(lines);
    for (const word of present) expect(text).toContain(word);
    for (const word of absent) expect(text).not.toContain(word);
    expect(text).toMatch(/Every other setting.*: ddedge --help\n$/);
  });

  it.each([
    ['keygen', ['ddedge gateway keygen NAME', '--algorithm', 'hmac-sha512'], ['--zone', '--host', '--dns-listen']],
    ['check-keys', ['ddedge gateway check-keys FILE', 'grant "NAME" zonesub [TYPE ...];', 'transfer "NAME";'], ['--zone', '--host', '--algorithm']],
  ])('gateway %s --help: that action only, not the whole gateway', async (action, present, absent) => {
    const text = await help('gateway', action);
    for (const word of present) expect(text).toContain(word);
    for (const word of absent) expect(text).not.toContain(word);
    expect(text).toMatch(/The command itself: ddedge gateway --help\n$/);
  });

  it('gateway --help says what --host means to the gateway, not to the agent', async () => {
    const text = await help('gateway');
    // Read as one line: the help wraps at the terminal's width.
    expect(text.replace(/\s+/g, ' ')).toContain("--host the agent's host names (same state directory): changed through the gateway only by a grant that names them [DDEDGE_HOSTS]");
    expect(text).not.toContain('to keep pointed at this machine');
  });

  it('ddedge --help still has every setting with its variable and description', async () => {
    const text = await help();
    for (const setting of Object.values(SETTINGS)) expect(text).toContain(`--${setting.flag}`);
    expect(text).toContain('re-send an unchanged address after this long');
    expect(text).toContain('--dyndns-key-file, DDEDGE_DYNDNS_KEY_FILE');
  });
});
