// Every command, declared as data: its name, what it does, its own flags, and which
// settings it reads. `ddedge update` never loads the sandbox, the API table or yargs.
import type { FlagValues } from '../config/load.js';
// The agent's commands are bundled into the entry: each extra module file costs start-up
// time. The sandbox (and, later, the SDK command) load on demand.
import * as daemon from './commands/daemon.js';
import * as health from './commands/health.js';
import * as ip from './commands/ip.js';
import * as status from './commands/status.js';
import * as update from './commands/update.js';
import type { Io } from './io.js';
import { acmeLiteralArguments } from './acme-arguments.js';

export interface FlagSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  describe: string;
  default?: string;
}

export interface CommandContext {
  flags: FlagValues;
  positionals: string[];
  io: Io;
}

export type Handler = (context: CommandContext) => Promise<number>;

export interface CommandSpec {
  name: string;
  usage: string;
  describe: string;
  /** Reads the configuration table's settings (flags and variables). */
  settings: boolean;
  flags: Record<string, FlagSpec>;
  positionals?: boolean;
  /** The command reads its own arguments (API parameters are named by the operation). */
  freeArguments?: boolean;
  /** How many leading arguments are positionals taken as they are, even when they start with "-". */
  literalArguments?: (args: string[]) => number;
  load: () => Promise<{ run: Handler }>;
}

const json: FlagSpec = { type: 'boolean', describe: "print the command's result as one JSON document on stdout" };
const envFile: FlagSpec = { type: 'string', describe: 'dotenv file to read (default ./.env when present); never overrides a set variable' };

export const COMMANDS: CommandSpec[] = [
  {
    name: 'update',
    usage: 'ddedge update [options]',
    describe: 'one cycle for every host: learn the address, compare with the cache, send only what changed',
    settings: true,
    flags: {
      json,
      'env-file': envFile,
      'dry-run': { type: 'boolean', describe: 'decide and report; send no change' },
      force: { type: 'boolean', describe: 'ignore the cache and send' },
    },
    load: async () => update,
  },
  {
    name: 'daemon',
    usage: 'ddedge daemon [options]',
    describe: 'a cycle every --interval with jitter; backs off on transient failures; SIGUSR1 forces a cycle, SIGHUP reloads',
    settings: true,
    flags: { 'env-file': envFile },
    load: async () => daemon,
  },
  {
    name: 'ip',
    usage: 'ddedge ip [options]',
    describe: "prints the detected address(es); with --json each source's answer, error and time",
    settings: true,
    flags: { json, 'env-file': envFile },
    load: async () => ip,
  },
  {
    name: 'status',
    usage: 'ddedge status [options]',
    describe: 'prints the cache: per host, the address sent, when, how, and the last error',
    settings: true,
    flags: { json, 'env-file': envFile },
    load: async () => status,
  },
  {
    name: 'health',
    usage: 'ddedge health [--max-age D]',
    describe: 'exit 0 when the last successful cycle is newer than --max-age (default 3 x --interval), for container health checks',
    settings: true,
    flags: { json, 'env-file': envFile },
    load: async () => health,
  },
  {
    name: 'api',
    usage: 'ddedge api <module> <action> [--<param> <value> …] [--all] [--raw] | ddedge api list',
    describe: 'calls any registrar API operation; parameter names are the API\'s own; prints responseData as JSON',
    settings: false,
    freeArguments: true,
    flags: {
      all: { type: 'boolean', describe: 'follow every page of a list operation' },
      raw: { type: 'boolean', describe: 'print the whole envelope' },
      'api-url': { type: 'string', describe: 'registrar API base [DDEDGE_API_URL]' },
      'api-user': { type: 'string', describe: 'apiuser [DDEDGE_API_USER]' },
      'api-password': { type: 'string', describe: 'apipasswd [DDEDGE_API_PASSWORD, _FILE, credential api-password]' },
    },
    load: () => import('./commands/api.js'),
  },
  {
    name: 'completion',
    usage: 'ddedge completion [bash|zsh]',
    describe: 'prints a shell completion script (bash > /etc/bash_completion.d/ddedge; zsh through bashcompinit)',
    settings: false,
    positionals: true,
    flags: {},
    load: () => import('./commands/completion.js'),
  },
  {
    name: 'sandbox',
    usage: 'ddedge sandbox [--port N] [--listen ADDR] [--dns-port N] [--data FILE] [--tls-cert F --tls-key F] [--fault T=K] [--json]',
    describe: 'serves a local emulation of the registrar API and the dynamic DNS interface, with a demo account',
    settings: false,
    flags: {
      port: { type: 'string', describe: 'TCP port (0 picks a free one)', default: '8443' },
      listen: { type: 'string', describe: 'address to listen on', default: '127.0.0.1' },
      data: { type: 'string', describe: 'keep the state in this file across restarts (written atomically)' },
      'tls-cert': { type: 'string', describe: 'PEM certificate: serve HTTPS' },
      'tls-key': { type: 'string', describe: 'PEM private key for --tls-cert' },
      json: { type: 'boolean', describe: 'print one JSON line with the URLs and credentials once listening' },
      'plain-style': { type: 'string', describe: 'plain dynamic DNS answers announce a change as "UPDATE: <ip>" (update, the spec) or "IP:<ip>" (ip, seen from the real service)', default: 'update' },
      'dns-port': { type: 'string', describe: 'also answer DNS queries (UDP and TCP, same address) for the zones it holds, as their authoritative server; 0 picks a free port' },
      'allow-ip': { type: 'string', multiple: true, describe: 'accept API calls only from these addresses (repeatable); others get error 1007, as an unregistered address does' },
      fault: { type: 'string', multiple: true, describe: 'inject a fault: <target>=<kind>[:<ms>][x<count>]; target dyndns, module/action or *; kind slow, hang, 500, 502, 503, reset, garbage, empty, truncated, huge' },
    },
    load: () => import('./commands/sandbox.js'),
  },
  {
    name: 'acme',
    usage: 'ddedge acme present|cleanup <fqdn> <value> | ddedge acme certbot-auth|certbot-cleanup [options]',
    describe: 'sets and removes ACME DNS-01 challenge TXT records (lego exec, certbot hooks, acme.sh), waiting until the name servers show them',
    settings: true,
    positionals: true,
    flags: {
      json,
      'env-file': envFile,
      'no-wait': { type: 'boolean', describe: 'present: return once the API has accepted the record; do not wait for the name servers' },
    },
    // lego runs `present <fqdn> <value>`: a base64url value starts with "-" once in 64.
    literalArguments: acmeLiteralArguments,
    load: () => import('./commands/acme.js'),
  },
];

export const findCommand = (name: string): CommandSpec | undefined => COMMANDS.find((c) => c.name === name);

/** Names within two edits of a mistyped one, for "did you mean". */
export function nearestNames(name: string, names: string[]): string[] {
  return names.filter((n) => editDistance(n, name) <= 2 || n.startsWith(name));
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}
