import { readFileSync } from 'node:fs';
import { ConfigError } from '../../lib/errors.js';
import { listenError } from '../../lib/listen-address.js';
import { isLoopbackHost } from '../../lib/address.js';
import { collectBeforeExit } from '../../lib/long-running-heap.js';
import { invokedAs } from '../invoked-as.js';
import { describeFault, parseFault, type Fault } from '../../sandbox/faults.js';
import { OPERATIONS } from '../../sandbox/api-operations.js';
import { startSandbox, type Sandbox } from '../../sandbox/server.js';
import { sandboxShellLines } from '../../sandbox/shell-env.js';
import type { CommandContext } from '../command.js';

export async function run(context: CommandContext): Promise<number> {
  const { flags, io } = context;
  // It logs every request: a reader that stops reading must not stop it answering.
  io.outputNeverBlocks?.(collectBeforeExit);
  const { port, dnsPort } = portsOf(flags);
  if (flags.json && flags['print-env']) throw new ConfigError('--json and --print-env: choose one');
  const certPath = flags['tls-cert'] as string | undefined;
  const keyPath = flags['tls-key'] as string | undefined;
  if (Boolean(certPath) !== Boolean(keyPath)) throw new ConfigError('--tls-cert and --tls-key go together');
  const read = (path: string, flag: string) => {
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      throw new ConfigError(`${flag}: cannot read "${path}": ${(error as NodeJS.ErrnoException).code}`);
    }
  };
  const targets = Object.entries(OPERATIONS).flatMap(([module, actions]) =>
    Object.keys(actions).map((action) => `${module}/${action}`),
  );
  const faults = ((flags.fault as string[] | undefined) ?? []).map((text) => parseFault(text, targets));
  const plainStyle = (flags['plain-style'] as string | undefined) ?? 'update';
  if (plainStyle !== 'update' && plainStyle !== 'ip')
    throw new ConfigError(`--plain-style: "${plainStyle}" is not update or ip`);
  const sandbox = await startSandbox({
    port,
    host: (flags.listen as string | undefined) ?? '127.0.0.1',
    dataFile: flags.data as string | undefined,
    tls: certPath && keyPath ? { cert: read(certPath, '--tls-cert'), key: read(keyPath, '--tls-key') } : undefined,
    faults,
    plainStyle,
    allowedIps: (flags['allow-ip'] as string[] | undefined)
      ?.flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter(Boolean),
    log: (line) => io.stderr(`sandbox: ${line}\n`),
    dnsPort,
  }).catch((error: NodeJS.ErrnoException & { port?: number }) => {
    if (error instanceof ConfigError) throw error;
    // Node's listen errors name the port that failed (the HTTP one or the DNS one); said in words, as the gateway says
    // it.
    const failed = error.port ?? port;
    const host = (flags.listen as string | undefined) ?? '127.0.0.1';
    throw listenError(
      dnsPort !== undefined && failed === dnsPort && failed !== port ? '--dns-port' : '--port',
      `${host.includes(':') ? `[${host}]` : host}:${failed}`,
      error,
    );
  });
  if (!isLoopbackHost(new URL(sandbox.url).hostname)) {
    io.stderr(
      `sandbox: warning: listening on ${sandbox.url}, beyond this machine; its demo credentials are public, and it ` +
        `is not a server to expose\n`,
    );
  }
  io.stdout(
    flags.json
      ? listeningJson(sandbox)
      : flags['print-env']
        ? sandboxShellLines(sandbox)
        : listeningText(sandbox, faults, invokedAs(process.argv[1], io.cwd, process.execPath)),
  );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  await sandbox.close();
  return 0;
}

/**
 * The HTTP port and the name server's, as given; not told, it takes free ones (and prints which):
 * a fixed default is a port another program may hold. No name server unless --dns or --dns-port.
 */
function portsOf(flags: CommandContext['flags']): { port: number; dnsPort?: number } {
  const port = flags.port === undefined ? 0 : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`--port: "${flags.port}" is not a port number (0-65535)`);
  const given = flags['dns-port'];
  if (given === undefined) return flags.dns ? { port, dnsPort: 0 } : { port };
  const dnsPort = Number(given);
  if (!/^\d{1,5}$/.test(String(given)) || dnsPort > 65535)
    throw new ConfigError(`--dns-port: "${given}" is not a port number (0-65535)`);
  return { port, dnsPort };
}

/** What the sandbox prints with --json: where it listens and the demo account. */
function listeningJson(sandbox: Sandbox): string {
  const { account } = sandbox.model;
  return (
    JSON.stringify({
      apiUrl: sandbox.url,
      dyndnsUrl: sandbox.url,
      apiUser: account.apiUser,
      apiPassword: account.apiPassword,
      dyndnsUser: account.dyndnsUser,
      dyndnsKey: account.dyndnsKey,
      ...(sandbox.dnsPort === undefined ? {} : { dnsPort: sandbox.dnsPort }),
    }) + '\n'
  );
}

/** Where the sandbox listens, the demo account, every zone's records and a command to try. */
function listeningText(sandbox: Sandbox, faults: Fault[], command: string): string {
  const { account } = sandbox.model;
  // Every record of every zone, as a user will meet them (an update, an ACME challenge beside SPF).
  const zone = sandbox.model.services
    .map(
      (s) =>
        `  ${s.name}:\n${s.dns
          .map((e) => `    ${e.name} ${e.type}${e.priority !== '-' ? ` ${e.priority}` : ''} ` + `${e.value}`)
          .join('\n')}`,
    )
    .join('\n');
  return (
    `ddedge sandbox listening on ${sandbox.url} (demo account; nothing here is real)\n` +
    `  registrar API: ${sandbox.url}  user ${account.apiUser}  password ${account.apiPassword}\n` +
    `  dynamic DNS:   user ${account.dyndnsUser}  key ${account.dyndnsKey}, at any of (each as it is, to paste)\n` +
    ['json', 'xml', 'plain'].map((format) => `                 ${sandbox.url}/${format}/\n`).join('') +
    (sandbox.dnsPort === undefined
      ? ''
      : `  name server:   ${new URL(sandbox.url).hostname} port ${sandbox.dnsPort} (UDP and TCP), e.g. dig ` +
        `@${new URL(sandbox.url).hostname.replace(/^\[|\]$/g, '')} -p ${sandbox.dnsPort} example.com SOA\n`) +
    `zones:\n${zone}\n` +
    `try:\n  DDEDGE_DYNDNS_URL=${sandbox.url} DDEDGE_DYNDNS_USER=${account.dyndnsUser} ` +
    `DDEDGE_DYNDNS_KEY=${account.dyndnsKey} \\\n` +
    // A state directory of its own: a fixed name in /tmp could be another user's.
    `  DDEDGE_STATE_DIR=$(mktemp -d) ${command} update ` +
    '--host home.example.com --ip 81.0.2.15\n' +
    (faults.length ? `faults: ${faults.map(describeFault).join(', ')}\n` : '')
  );
}
