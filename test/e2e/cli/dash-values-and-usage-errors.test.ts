// What a newcomer types, through the built file: values of the agent's own flags that begin
// with "-" (a key or password can), the one-line errors they get when a value is missing,
// errors that never repeat an argument, the daemon's unusable state directory, completion.
// The first test and the daemons run the built file; the other messages come from main() in
// this process (the same argument parsing, without a process start each).
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentEnv, zoneValue } from '../../helpers/agent-env.js';
import { baseEnv, HANG_BOUND_MS, runDist, runMain, startDist, tempDir } from '../../helpers/cli.js';
import { complete } from '../../helpers/completion.js';
import { startServer } from '../../helpers/servers.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox({ per: 'file' });

describe('flag values that begin with "-"', () => {
  it('a dynamic DNS key beginning with "-" is the value of --dyndns-key, and is never echoed', async () => {
    const key = '-Kq7-leading-dash-canary';
    sandbox.model.account.dyndnsKey = key;
    const env = agentEnv(sandbox, { DDEDGE_DYNDNS_KEY: undefined });
    const run = await runDist(['update', '--dyndns-key', key, '--ip', '81.0.2.77', '--log-level', 'debug'], env);
    expect(run).toMatchObject({ code: 0, stdout: 'home.example.com A 81.0.2.77 updated\n' });
    expect(zoneValue(sandbox, 'home.example.com')).toBe('81.0.2.77');
    expect(run.stdout + run.stderr).not.toContain('leading-dash-canary');
  });

  it('a wrong value beginning with "-" gets the setting\'s own one-line error', async () => {
    const run = await runMain(['update', '--ip', '-1', '--json'], agentEnv(sandbox));
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('ddedge: --ip: "-1" is not an IPv4 address\n');
    expect(JSON.parse(run.stdout)).toMatchObject({ error: { exitCode: 2, kind: 'usage' } });
  });

  it('a flag left without its value (the next argument is a flag) is one line, naming it', async () => {
    const run = await runMain(['update', '--host', '--json'], agentEnv(sandbox));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^ddedge: update: --host needs a value[^\n]*\n$/);
    expect(JSON.parse(run.stdout).error.message).toMatch(/--host needs a value/);
  });
});

describe('error messages name an argument, never repeat it (it may be a secret)', () => {
  const canary = 'canary-Nu-7f3q';
  it('a flag put before the command: named without its value', async () => {
    const run = await runMain(['--api-password=' + canary, 'api', 'tool', 'hello', '--json'], agentEnv(sandbox));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^ddedge: --api-password is a flag, not a command: flags go after the command[^\n]*\n$/);
    expect(JSON.parse(run.stdout)).toMatchObject({ error: { exitCode: 2, kind: 'usage' } });
    expect(run.stdout + run.stderr).not.toContain(canary);
  });

  it('a password with a space, unquoted: the stray half is named by position', async () => {
    const run = await runMain(['update', '--dyndns-key', 'first-half', canary, '--json'], agentEnv(sandbox));
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'ddedge: update: argument 4 is unexpected (update takes no positional arguments; quote a value that has spaces) (see ddedge update --help)\n',
    );
    expect(run.stdout + run.stderr).not.toContain(canary);
  });

  it('the position counts the arguments as given, also after a value that begins with "-"', async () => {
    const run = await runMain(['status', '--state-dir', '-x', canary], agentEnv(sandbox));
    expect(run.stderr).toMatch(/argument 4 is unexpected/);
    expect(run.stderr).not.toContain(canary);
  });
});

describe('zone: a stray argument is counted, not repeated', () => {
  it('zone plan FILE <stray>', async () => {
    const canary = 'canary-Nu-zone-9k';
    const run = await runMain(['zone', 'plan', 'example.com.zone', canary, '--json'], agentEnv(sandbox));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/zone plan: 1 unexpected argument/);
    expect(run.stdout + run.stderr).not.toContain(canary);
  });
});

describe('the daemon with a state directory it can never use', () => {
  it.each(['/proc/ddedge', '/dev/null'])(
    '--state-dir %s: exit 2 at once, as update does (not a retry every 15 s)',
    async (dir) => {
      const daemon = startDist(['daemon', '--ip', '81.0.2.15', '--state-dir', dir], agentEnv(sandbox));
      const bound = setTimeout(() => daemon.kill('SIGKILL'), HANG_BOUND_MS);
      const run = await daemon.result.finally(() => clearTimeout(bound));
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/--state-dir: cannot create/);
      expect(run.stderr).not.toMatch(/retrying/);
    },
  );
});

describe('completion: the actions of zone and acme', () => {
  it('ddedge zone <TAB> offers export, plan, apply (the words the command accepts), then flags', async () => {
    expect(await complete('ddedge', 'zone', '')).toEqual(['export', 'plan', 'apply', '--help']);
    expect((await runMain(['zone', 'bogus'], baseEnv())).stderr).toContain('give one of export, plan, apply');
    expect(await complete('ddedge', 'zone', 'export', '--serv')).toEqual(['--service']);
  });

  it('ddedge acme <TAB> offers its four actions', async () => {
    expect(await complete('ddedge', 'acme', '')).toEqual([
      'present',
      'cleanup',
      'certbot-auth',
      'certbot-cleanup',
      '--help',
    ]);
    expect((await runMain(['acme', 'bogus'], baseEnv())).stderr).toContain(
      'give one of present, cleanup, certbot-auth, certbot-cleanup',
    );
    expect(await complete('ddedge', 'acme', 'present', '--no-w')).toEqual(['--no-wait']);
  });
});

describe('ddedge ip --json when every source fails', () => {
  it('still shows each source with its error (the answers a user needs most then)', async () => {
    const missing = await startServer((_req, res) => {
      res.statusCode = 404;
      res.end('not here');
    });
    try {
      const env = baseEnv({
        DDEDGE_STATE_DIR: tempDir(),
        DDEDGE_IP_SOURCES: `url:${missing.url},url:http://127.0.0.1:9/`,
        DDEDGE_TIMEOUT: '3s',
      });
      const run = await runMain(['ip', '--json'], env);
      expect(run.code).toBe(6);
      const [report] = JSON.parse(run.stdout).addresses;
      expect(report.address).toBeNull();
      expect(report.sources).toHaveLength(2);
      expect(report.sources.find((s: { source: string }) => s.source === `url:${missing.url}`).error).toMatch(
        /HTTP 404/,
      );
      expect(report.sources.find((s: { source: string }) => s.source === 'url:http://127.0.0.1:9/').error).toMatch(
        /ECONNREFUSED/,
      );
    } finally {
      await missing.close();
    }
  });
});

describe('a secret file or dotenv file that never ends', () => {
  // Killed past the hang bound: a read without end is a finding, not a stuck suite (a tighter
  // clock failed on a loaded machine, where a start of the built file alone took seconds).
  const bounded = async (args: string[], env: Record<string, string>) => {
    const child = startDist(args, env);
    const bound = setTimeout(() => child.kill('SIGKILL'), HANG_BOUND_MS);
    return child.result.finally(() => clearTimeout(bound));
  };

  it('DDEDGE_API_PASSWORD_FILE=/dev/zero: exit 2 at once, naming the size limit (it read without end)', async () => {
    const run = await bounded(
      ['api', 'tool', 'hello', '--json'],
      baseEnv({ DDEDGE_API_URL: sandbox.url, DDEDGE_API_USER: 'demo-user', DDEDGE_API_PASSWORD_FILE: '/dev/zero' }),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/DDEDGE_API_PASSWORD_FILE: "\/dev\/zero" is larger than 64 KiB/);
  });

  // --dotenv: `node dist/ddedge.mjs --env-file F` would have Node itself read F (docs/agent.md).
  it('--dotenv /dev/zero: exit 2 at once', async () => {
    const run = await bounded(['update', '--dotenv', '/dev/zero', '--json'], agentEnv(sandbox));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--dotenv: "\/dev\/zero" is larger than 1 MiB/);
  });

  it('zone plan /dev/zero: exit 2 at once', async () => {
    const run = await bounded(
      ['zone', 'plan', '/dev/zero', '--service', 'example.com'],
      baseEnv({
        DDEDGE_API_URL: sandbox.url,
        DDEDGE_API_USER: 'demo-user',
        DDEDGE_API_PASSWORD: 'demo-api-password',
        DDEDGE_STATE_DIR: tempDir(),
      }),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/\/dev\/zero: a device, not a zone file/);
  });

  it('a key in a regular file still works, its trailing newline dropped', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'key'), `${sandbox.model.account.dyndnsKey}\n`);
    const run = await runMain(
      ['update', '--ip', '81.0.2.78'],
      agentEnv(sandbox, { DDEDGE_DYNDNS_KEY: undefined, DDEDGE_DYNDNS_KEY_FILE: join(dir, 'key') }),
    );
    expect(run).toMatchObject({ code: 0, stdout: 'home.example.com A 81.0.2.78 updated\n' });
  });
});

describe('ddedge-acme (the second command) with --env-file', () => {
  const wrapper = join(import.meta.dirname, '../../../bin/ddedge-acme');
  const runWrapper = (args: string[], env: Record<string, string>) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolveRun) => {
      execFile(wrapper, args, { env, timeout: 20_000 }, (error, stdout, stderr) =>
        resolveRun({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
      );
    });

  it("a missing file is ddedge's own message and exit 2, not Node's exit 9", async () => {
    const run = await runWrapper(
      ['present', '_acme-challenge.example.com', 'v1', '--env-file', '/nonexistent/acme.env'],
      baseEnv(),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^ddedge: --env-file: cannot read "\/nonexistent\/acme.env": no such file/);
  });

  it('a file that exists gives the settings', async () => {
    const dir = tempDir();
    const file = join(dir, 'acme.env');
    writeFileSync(
      file,
      `DDEDGE_API_URL=${sandbox.url}\nDDEDGE_API_USER=demo-user\nDDEDGE_API_PASSWORD=demo-api-password\nDDEDGE_STATE_DIR=${dir}\n`,
    );
    const run = await runWrapper(
      ['present', '_acme-challenge.example.com', 'nu-env-file', '--no-wait', '--env-file', file],
      baseEnv(),
    );
    expect(run.code).toBe(0);
    expect(zoneValue(sandbox, '_acme-challenge.example.com', 'TXT')).toBe('nu-env-file');
  });
});

describe('a fatal error follows the log format (containers log JSON lines; journald keeps levels)', () => {
  it.each([
    ['--log-format json', ['update', '--ip', 'nope', '--log-format', 'json'], {}],
    ['DDEDGE_LOG_FORMAT=json (the container image sets it)', ['update', '--ip', 'nope'], { DDEDGE_LOG_FORMAT: 'json' }],
  ])('%s: the error is one JSON line with level error', async (_name, args, extra) => {
    const run = await runMain(args as string[], agentEnv(sandbox, extra));
    expect(run.code).toBe(2);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 'error',
      msg: expect.stringContaining('--ip: "nope" is not an IPv4 address'),
    });
  });

  it('under journald (JOURNAL_STREAM) every line of the error carries the error priority <3>', async () => {
    const run = await runMain(
      ['update', '--ip', 'nope', '--host', 'x'],
      agentEnv(sandbox, { JOURNAL_STREAM: '8:1234' }),
    );
    expect(run.code).toBe(2);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line).toMatch(/^<3>/);
    expect(lines[0]).toMatch(/^<3>ddedge: invalid configuration:/);
  });

  it('text stays as it was: "ddedge: …"', async () => {
    const run = await runMain(['update', '--ip', 'nope'], agentEnv(sandbox));
    expect(run.stderr).toBe('ddedge: --ip: "nope" is not an IPv4 address\n');
  });
});

describe('--help names every form of address source', () => {
  it('file:<path> is among them (docs/agent.md lists it)', async () => {
    const run = await runMain(['--help'], baseEnv());
    expect(run.stdout).toMatch(/Also: .*file:<path>/);
  });
});

describe('one problem, one line', () => {
  it.each([
    [['--host', 'https://home.example.com'], {}, '--host'],
    [[], { DDEDGE_HOSTS: 'home.example.com:8080' }, 'DDEDGE_HOSTS'],
  ])('an invalid host %j %j is reported, without a second "no host to update"', async (args, extra, origin) => {
    const run = await runMain(['update', '--ip', '81.0.2.15', ...args], agentEnv(sandbox, extra));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^ddedge: ${origin}: "[^"]+" is not a fully qualified host name\\n$`));
  });
});

describe('a host name with a tab or a line break', () => {
  it.each(['ho\tme.example.com', 'ho\nme.example.com', 'home.\r\nexample.com'])(
    '%j is refused, not silently joined into another name',
    async (host) => {
      const before = zoneValue(sandbox, 'home.example.com');
      const run = await runMain(
        ['update', '--ip', '81.0.2.99', '--host', host],
        agentEnv(sandbox, { DDEDGE_HOSTS: undefined }),
      );
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^ddedge: --host: .* is not a fully qualified host name\n$/);
      expect(zoneValue(sandbox, 'home.example.com')).toBe(before);
    },
  );
});
