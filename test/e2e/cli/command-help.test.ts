// `ddedge <command> --help` is short: what that command reads and its own options, then a
// pointer to `ddedge --help` for the rest (it printed 130 to 150 lines: every setting of every
// command, the environment table and the exit codes).
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../../../src/config/settings.js';
import { FAULT_KINDS } from '../../../src/sandbox/faults.js';
import { baseEnv, runMain } from '../../helpers/cli.js';

const help = async (...args: string[]) => {
  const run = await runMain([...args, '--help'], baseEnv());
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
};

describe('<command> --help', () => {
  it.each([
    [
      'update',
      60,
      [
        '--host',
        '--dyndns-key',
        '--api-password',
        '--via',
        '--ttl',
        '--ip-source',
        '--max-age',
        '--dry-run',
        '--force',
        'DDEDGE_HOSTS',
      ],
      ['--interval', '--listen', '--propagation-timeout', '--dns-server', 'Exit codes'],
    ],
    [
      'ip',
      30,
      ['--ip-source', '--quorum', '--ip6-source', '--timeout', '--json'],
      ['--dyndns-key', '--host', '--max-age', '--api-password'],
    ],
    [
      'zone',
      45,
      ['--api-user', '--service', '--ignore', '--keep-unlisted', '--format'],
      ['--dyndns-key', '--ip-source', '--quorum', '--interval'],
    ],
    [
      'health',
      25,
      ['--max-age', '--healthy-within', 'DDEDGE_HEALTH_MAX_AGE', '--state-dir'],
      ['--dyndns-key', '--ip-source', 'DDEDGE_MAX_AGE]'],
    ],
    [
      'acme',
      35,
      ['--dns-server', '--propagation-timeout', '--api-password', '--no-wait', '--any-name'],
      ['--dyndns-key', '--ip-source', '--quorum'],
    ],
  ])(
    '%s --help: at most %i lines, what it reads, and a pointer to ddedge --help',
    async (command, lines, present, absent) => {
      const text = await help(command);
      expect(text.split('\n').length).toBeLessThanOrEqual(lines);
      for (const word of present) expect(text).toContain(word);
      for (const word of absent) expect(text).not.toContain(word);
      expect(text).toMatch(/Every other setting.*: ddedge --help\n$/);
    },
  );

  it.each([
    ['keygen', ['ddedge gateway keygen NAME', '--algorithm', 'hmac-sha512'], ['--zone', '--host', '--dns-listen']],
    [
      'check-keys',
      ['ddedge gateway check-keys FILE', 'grant "NAME" zonesub [TYPE ...];', 'transfer "NAME";'],
      ['--zone', '--host', '--algorithm'],
    ],
  ])('gateway %s --help: that action only, not the whole gateway', async (action, present, absent) => {
    const text = await help('gateway', action);
    for (const word of present) expect(text).toContain(word);
    for (const word of absent) expect(text).not.toContain(word);
    expect(text).toMatch(/The command itself: ddedge gateway --help\n$/);
  });

  it('gateway --help says what --host means to the gateway, not to the agent', async () => {
    const text = await help('gateway');
    // Read as one line: the help wraps at the terminal's width.
    expect(text.replace(/\s+/g, ' ')).toContain(
      "--host the agent's host names (same state directory): changed through the gateway only by a grant that names them [DDEDGE_HOSTS]",
    );
    expect(text).not.toContain('to keep pointed at this machine');
  });

  it('daemon and gateway --help say in full what --listen-token is for (the help shows a description up to its first "; ")', async () => {
    for (const command of ['daemon', 'gateway']) {
      const text = (await help(command)).replace(/\s+/g, ' ');
      expect(text).toContain(
        '--listen-token the token the status page and its "update now" need when --listen is beyond loopback ' +
          '[DDEDGE_LISTEN_TOKEN;',
      );
    }
  });

  it('ddedge --help still has every setting with its variable and description', async () => {
    const text = await help();
    for (const setting of Object.values(SETTINGS)) expect(text).toContain(`--${setting.flag}`);
    expect(text).toContain('re-send an unchanged address after this long');
    expect(text).toContain('--dyndns-key-file, DDEDGE_DYNDNS_KEY_FILE');
  });
});

/** One option's row, its wrapped lines joined: `--force apply a plan that …`. */
const optionRow = (text: string, flag: string): string => {
  const match = new RegExp(`^  ${flag} .*(?:\\n {26}.*)*`, 'm').exec(text);
  expect(match, `${flag} in the help`).not.toBeNull();
  return match![0].replace(/\s+/g, ' ').trim();
};

describe('what the help says is what the commands do', () => {
  it('zone --help: --dns-server as zone export --complete uses it, not only for acme', async () => {
    const row = optionRow(await help('zone'), '--dns-server');
    expect(row).toMatch(/export --complete/);
    expect(row).toMatch(/SOA and NS/);
    expect(row).not.toMatch(/acme/);
  });

  it("zone --help: --force with the contract's rules, the apex rule as narrow as it is", async () => {
    const row = optionRow(await help('zone'), '--force');
    expect(row).not.toMatch(/or its apex/);
    expect(row).toContain('more than 30% of the records it may touch');
    expect(row).toContain('every record it may touch');
    expect(row).toContain('every A/AAAA or every MX record at the apex');
  });

  it('sandbox --help names every fault it can inject', async () => {
    const row = optionRow(await help('sandbox'), '--fault');
    for (const kind of FAULT_KINDS) expect(row).toMatch(new RegExp(`\\b${kind}\\b`));
  });

  it('ddedge --help wraps its text with the indentation of what it continues', async () => {
    const text = await help();
    const lines = text.split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(100);
    // The settings' preamble is one paragraph, not a line cut short before "<VARIABLE>_FILE".
    expect(lines.filter((line) => /^<VARIABLE>|^or \$CREDENTIALS/.test(line))).toEqual([]);
    expect(text.replace(/\s+/g, ' ')).toContain(
      'a secret also from <VARIABLE>_FILE or $CREDENTIALS_DIRECTORY/<credential>;',
    );
    // Each built-in source's text continues under itself, not at the margin.
    const sources = lines.slice(lines.indexOf('Built-in address sources:') + 1);
    const block = sources.slice(0, sources.indexOf(''));
    expect(block.length).toBeGreaterThan(5);
    for (const line of block) expect(line).toMatch(/^ {2}\S|^ {15}\S/);
    expect(block.join('\n')).toMatch(/^ {2}cloudflare +Cloudflare's trace page .*\n {15}\S/m);
  });
});
