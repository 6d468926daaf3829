// BIND's `named` (Debian bind9) as a reference server and as a secondary in tests: one process
// in the foreground (-g) on 127.0.0.1 and a free port, its configuration, zone files and
// journals in a temporary folder, no control channel, no IPv6, no recursion. Started as the
// current user (as root in CI it stays root: -u would need a user that can read the folder).
// Ready once it answers the SOA of every zone it was given, or, for a secondary, once it listens.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './cli.js';
import { freePort } from './programs.js';
import { waitUntil } from './wait.js';

export interface Named {
  port: number;
  dir: string;
  /** What named logged (-g logs to stderr). */
  output(): string;
  stop(): Promise<void>;
}

export interface NamedConfig {
  /** `key`, `zone` and other top-level statements, after the options named needs here. */
  statements: string;
  /** Files written in named's folder before it starts (zone files), by name. */
  files?: Record<string, string>;
  /** Extra lines inside `options { }` (notify settings). */
  options?: string;
  /** Zones whose SOA must be answered before the server counts as started (primary zones). */
  ready?: string[];
  /** The port to listen on, when others must know it before named starts (a primary that notifies it); a free one otherwise. */
  port?: number;
}

/** A name/TSIG key as named.conf writes it; `secret` is base64. */
export const keyStatement = (name: string, algorithm: string, secret: string): string =>
  `key "${name}" { algorithm ${algorithm}; secret "${secret}"; };\n`;

export async function startNamed(config: NamedConfig): Promise<Named> {
  const dir = tempDir('ddedge-named-');
  for (const [name, text] of Object.entries(config.files ?? {})) writeFileSync(join(dir, name), text);
  // A port free for TCP may be taken for UDP by another test: a start that fails to listen is tried again on another.
  for (let attempt = 1; ; attempt++) {
    const port = attempt === 1 && config.port ? config.port : await freePort();
    writeFileSync(
      join(dir, 'named.conf'),
      `options {
  directory "${dir}";
  listen-on port ${port} { 127.0.0.1; };
  listen-on-v6 { none; };
  pid-file none;
  session-keyfile "${dir}/session.key";
  managed-keys-directory "${dir}";
  recursion no;
  dnssec-validation no;
  notify no;
${config.options ?? ''}
};
controls { };
logging { category default { default_stderr; }; category update { default_stderr; }; category xfer-in { default_stderr; }; category notify { default_stderr; }; };
${config.statements}`,
    );
    const child = spawn('named', ['-g', '-c', join(dir, 'named.conf')], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    child.stderr!.on('data', (d) => (log += d));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    const named: Named = { port, dir, output: () => log, stop: () => stop(child, exited) };
    const started = await waitStarted(named, child, config.ready ?? []);
    if (started) return named;
    await named.stop();
    if (attempt >= 3 || config.port || !/address in use/i.test(log)) throw new Error(`named did not start:\n${log}`);
  }
}

/** Waits (bounded by a hang) until named logs that it is running and answers each zone's SOA; false when it exited. */
async function waitStarted(named: Named, child: ChildProcess, zones: string[]): Promise<boolean> {
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const answering = async () => {
    if (!/\brunning\b/.test(named.output())) return false;
    for (const zone of zones) if (!/status: NOERROR/.test(await dig(named.port, [zone, 'SOA']))) return false;
    return true;
  };
  try {
    await waitUntil(async () => exited() || (await answering()), 'named answering its zones', { everyMs: 50 });
  } catch (error) {
    throw new Error(`${(error as Error).message}:\n${named.output()}`);
  }
  return !exited();
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** `dig @127.0.0.1 -p PORT ARGS…`: its output, whatever the exit code (one try, 3 s). */
export function dig(port: number, args: string[]): Promise<string> {
  return new Promise((resolve) =>
    execFile(
      'dig',
      ['@127.0.0.1', '-p', String(port), '+time=3', '+tries=1', '+norec', ...args],
      { timeout: 15_000 },
      (_error, stdout, stderr) => resolve(stdout + stderr),
    ),
  );
}
