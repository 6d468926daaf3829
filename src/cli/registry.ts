// Every command, declared as data: its name, what it does, its own flags, and which
// settings it reads. `ddedge update` never loads the sandbox, the API table or the help.
// update and health are bundled into the entry: each extra module file costs start-up time.
// Every other command loads on demand (daemon, ip and status too): bundled, its code would be
// parsed in every cycle of `update` (see build/one-start-chunk.mjs).
// Named imports, not namespaces: a namespace object needs esbuild's runtime helper, which
// lives in a chunk of its own, one more file for every cycle to load.
import { run as runHealth } from './commands/health.js';
import { run as runUpdate } from './commands/update.js';
import { acmeLiteralArguments } from './acme-arguments.js';
// The shapes of a command live in command.ts and "did you mean" in nearest-names.ts, so the
// commands import neither from this file, which imports them.
import type { CommandSpec, FlagSpec } from './command.js';
import { GATEWAY_SETTINGS, type Setting } from '../config/settings.js';
// main.ts parses with these before it loads a command, and takes them from here: reached
// from the registry, they land in the start chunk instead of in two small chunks of their own
// (each file is one more for the ESM loader in every cycle; see build/one-start-chunk.mjs).
export { fillBareValues, joinDashValues, missingValueMessage } from './dash-values.js';
export { nearestNames } from '../lib/nearest-names.js';

const json: FlagSpec = { type: 'boolean', describe: "print the command's result as one JSON document on stdout" };
const envFile: FlagSpec = {
  type: 'string',
  describe: 'dotenv file to read (default ./.env when present); never overrides a set variable',
};
// Node 20 reads --env-file itself wherever it is on the command line: this spelling it leaves alone.
const dotenv: FlagSpec = {
  type: 'string',
  describe: 'the same as --env-file (use it where ddedge runs as "node ddedge.mjs")',
};

/** A command's own rows of the settings table as its flags: their help says the variable, its file and credential. */
const tableFlags = (table: Record<string, Setting>): Record<string, FlagSpec> =>
  Object.fromEntries(
    Object.values(table).map((s) => {
      const secret = s.credential ? `; ${s.credentialIsFile ? '' : `${s.env}_FILE, `}credential ${s.credential}` : '';
      return [
        s.flag,
        { type: 'string', multiple: s.multiple, default: s.default, describe: `${s.describe} [${s.env}${secret}]` },
      ];
    }),
  );

export const COMMANDS: CommandSpec[] = [
  {
    name: 'update',
    usage: 'ddedge update [options]',
    describe: 'one cycle for every host: learn the address, compare with the cache, send only what changed',
    settings: true,
    flags: {
      json,
      'env-file': envFile,
      dotenv,
      'dry-run': { type: 'boolean', describe: 'decide and report; send no change' },
      force: { type: 'boolean', describe: 'ignore the cache and send' },
    },
    load: async () => ({ run: runUpdate }),
  },
  {
    name: 'daemon',
    usage: 'ddedge daemon [options]',
    describe:
      'a cycle every --interval with jitter; backs off on transient failures; SIGUSR1 forces a cycle, SIGHUP reloads',
    settings: true,
    flags: { 'env-file': envFile, dotenv },
    load: () => import('./commands/daemon.js'),
  },
  {
    name: 'ip',
    usage: 'ddedge ip [options]',
    describe: "prints the detected addresses; with --json each source's answer, error and time",
    settings: true,
    flags: { json, 'env-file': envFile, dotenv },
    load: () => import('./commands/ip.js'),
  },
  {
    name: 'status',
    usage: 'ddedge status [--history [--limit N] [--since TIME|DURATION] [--host NAME]] [options]',
    describe:
      'prints the cache: per host, the address sent, when, how, and the last error; --history: the address history',
    settings: true,
    flags: {
      json,
      'env-file': envFile,
      dotenv,
      history: {
        type: 'boolean',
        describe: 'print the address history (per host and type: time, old, new, via, failures), newest first',
      },
      limit: { type: 'string', describe: 'with --history: the newest N entries only' },
      since: {
        type: 'string',
        describe: 'with --history: entries from a time on (2026-11-30) or from a duration ago (24h, 7d)',
      },
      host: { type: 'string', describe: 'with --history: the entries of one host name only' },
    },
    load: () => import('./commands/status.js'),
  },
  {
    name: 'health',
    usage: 'ddedge health [--max-age D]',
    describe:
      'exit 0 when the last successful cycle is newer than --max-age (default 3 x --interval), for container health ' +
      'checks',
    settings: true,
    // Here --max-age is health's window (--healthy-within), not the re-send age of a cycle.
    flags: {
      json,
      'env-file': envFile,
      dotenv,
      'max-age': {
        type: 'string',
        describe: 'healthy while the last successful cycle is newer than this; the same as --healthy-within',
      },
    },
    load: async () => ({ run: runHealth }),
  },
  {
    name: 'api',
    usage: 'ddedge api <module> <action> [--<param> <value> …] [--all] [--raw] | ddedge api list',
    describe: "calls any registrar API operation; parameter names are the API's own; prints responseData as JSON",
    settings: false,
    freeArguments: true,
    flags: {
      all: { type: 'boolean', describe: 'follow every page of a list operation' },
      raw: { type: 'boolean', describe: 'print the whole envelope' },
    },
    // Its connection settings are rows of the table (API_COMMAND_SETTINGS in command-settings.ts).
    load: () => import('./commands/api.js'),
  },
  {
    name: 'zone',
    usage:
      'ddedge zone export [--service NAME] [--format bind|json] [--output FILE|-] [--complete] | ' +
      'ddedge zone plan FILE|- [--service NAME] [--expect-no-changes] | ' +
      'ddedge zone apply FILE|- [--service NAME] [--force] [--dry-run]',
    describe:
      "a service's whole DNS zone as a file: export it, plan the changes a file asks for, apply them (backed up, " +
      'reversible)',
    settings: true,
    positionals: true,
    flags: {
      json,
      'env-file': envFile,
      format: { type: 'string', describe: 'export: bind (an RFC 1035 master file) or json', default: 'bind' },
      output: { type: 'string', describe: 'export: write to this file (atomically) instead of stdout (- is stdout)' },
      complete: {
        type: 'boolean',
        describe:
          "export: also write $TTL, the SOA and NS as the zone's name servers (or --dns-server) give them, for " +
          'named-checkzone, NSD, Knot',
      },
      ignore: {
        type: 'string',
        multiple: true,
        describe: 'leave NAME[:TYPE] alone (repeatable; * matches anything; relative to the zone or absolute)',
      },
      'keep-unlisted': { type: 'boolean', describe: 'keep records that are not in the file instead of deleting them' },
      'skip-unsupported': {
        type: 'boolean',
        describe: 'skip records of types the provider does not keep instead of refusing the file',
      },
      force: {
        type: 'boolean',
        describe:
          'apply a plan that would change or delete more than 30% of the records it may touch (when they are 10 or ' +
          'more), delete every record it may touch, or delete every A/AAAA or every MX record at the apex',
      },
      'dry-run': { type: 'boolean', describe: 'apply: print the plan; send no change' },
      'expect-no-changes': {
        type: 'boolean',
        describe: 'plan: exit 8 when the live zone differs from the file (a CI drift check)',
      },
      method: {
        type: 'string',
        describe: 'apply: calls (one per change), setzone (one service/dnssetzone), or auto (setzone from 50 calls on)',
        default: 'auto',
      },
    },
    load: () => import('./commands/zone.js'),
  },
  {
    name: 'init',
    usage: 'ddedge init [--non-interactive --hosts NAMES --dyndns-user U --dyndns-key-file F …] [--force]',
    describe:
      'set-up in one command: asks for the hosts and credentials, checks them with the provider, writes the ' +
      'settings file every command reads (/etc/ddedge/ddedge.env as root, else ~/.config/ddedge/ddedge.env)',
    settings: false,
    flags: {
      'non-interactive': {
        type: 'boolean',
        describe: 'ask nothing: take the answers from these flags and their variables (DDEDGE_HOSTS, …)',
      },
      force: { type: 'boolean', describe: 'replace a settings file or secret that exists' },
      hosts: { type: 'string', describe: 'host names to keep, comma-separated [DDEDGE_HOSTS]' },
      service: {
        type: 'string',
        describe: 'the hosting service (zone) when not their registered domain [DDEDGE_SERVICE]',
      },
      'dyndns-user': { type: 'string', describe: 'dynamic DNS user [DDEDGE_DYNDNS_USER]' },
      'dyndns-key': { type: 'string', describe: 'dynamic DNS key (prefer --dyndns-key-file) [DDEDGE_DYNDNS_KEY]' },
      'dyndns-key-file': { type: 'string', describe: 'a file holding the dynamic DNS key [DDEDGE_DYNDNS_KEY_FILE]' },
      'api-user': { type: 'string', describe: 'registrar API user [DDEDGE_API_USER]' },
      'api-password': { type: 'string', describe: 'API password (prefer --api-password-file) [DDEDGE_API_PASSWORD]' },
      'api-password-file': { type: 'string', describe: 'a file holding the API password [DDEDGE_API_PASSWORD_FILE]' },
      'dyndns-url': {
        type: 'string',
        describe: "the dynamic DNS interface, when not the provider's [DDEDGE_DYNDNS_URL]",
      },
      'api-url': { type: 'string', describe: "the registrar API, when not the provider's [DDEDGE_API_URL]" },
    },
    load: () => import('./commands/init.js'),
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
    usage:
      'ddedge sandbox [--port N] [--listen ADDR] [--dns | --dns-port N] [--data FILE] [--tls-cert F --tls-key F] ' +
      '[--fault T=K] [--json | --print-env]',
    describe: 'serves a local emulation of the registrar API and the dynamic DNS interface, with a demo account',
    settings: false,
    flags: {
      port: { type: 'string', describe: 'TCP port (default: a free one, which it prints)' },
      listen: { type: 'string', describe: 'address to listen on', default: '127.0.0.1' },
      data: { type: 'string', describe: 'keep the state in this file across restarts (written atomically)' },
      'tls-cert': { type: 'string', describe: 'PEM certificate: serve HTTPS' },
      'tls-key': { type: 'string', describe: 'PEM private key for --tls-cert' },
      json: { type: 'boolean', describe: 'print one JSON line with the URLs and credentials once listening' },
      'print-env': {
        type: 'boolean',
        describe:
          'print, once listening, shell lines to read with ". FILE": export DDEDGE_API_URL=… (the settings), ' +
          'SANDBOX_PORT=…, SANDBOX_DNS=… (its ports)',
      },
      'plain-style': {
        type: 'string',
        describe:
          'plain dynamic DNS answers announce a change as "UPDATE: <ip>" (update, the spec) or "IP:<ip>" (ip, seen ' +
          'from the real service)',
        default: 'update',
      },
      dns: { type: 'boolean', describe: "also answer DNS queries for its zones, on a free port (or --dns-port's)" },
      'dns-port': {
        type: 'string',
        describe:
          'also answer DNS queries (UDP and TCP, same address) for the zones it holds, as their authoritative ' +
          'server; 0 picks a free port',
      },
      'allow-ip': {
        type: 'string',
        multiple: true,
        describe:
          'accept API calls only from these addresses (repeatable); others get error 1007, as an unregistered ' +
          'address does',
      },
      fault: {
        type: 'string',
        multiple: true,
        describe:
          'inject a fault: <target>=<kind>[:<ms>][x<count>]; target dyndns, module/action or *; kind slow, hang, ' +
          '500, 502, 503, reset, garbage, empty, truncated, huge, refuse (error 105, as the provider answers a ' +
          'value it does not take), lost-answer (made, then the connection reset)',
      },
    },
    load: () => import('./commands/sandbox.js'),
  },
  {
    name: 'acme',
    usage:
      'ddedge acme present|cleanup <fqdn> <value> | ddedge acme certbot-auth|certbot-cleanup [options] | ddedge acme ' +
      'persist DOMAIN --issuer NAME [options] (ddedge acme persist --help)',
    describe:
      'sets and removes ACME DNS-01 challenge TXT records (lego exec, certbot hooks, acme.sh), waiting until the ' +
      'name servers show them; keeps the DNS-PERSIST-01 record of a domain',
    settings: true,
    positionals: true,
    flags: {
      json,
      'env-file': envFile,
      'no-wait': { type: 'boolean', describe: 'present: return once the API took the record; do not wait for DNS' },
      'any-name': {
        type: 'boolean',
        describe: 'accept a name without _acme-challenge. (a challenge delegated by CNAME)',
      },
      issuer: { type: 'string', describe: "persist: the CA's issuer domain name (Let's Encrypt: letsencrypt.org)" },
      'account-uri': { type: 'string', describe: 'persist: the ACME account URL, exactly as the CA gave it' },
      wildcard: { type: 'boolean', describe: 'persist: policy=wildcard (also *.DOMAIN and names below DOMAIN)' },
      until: { type: 'string', describe: 'persist: persistUntil: a time (2027-06-30), 180d from now, or Unix time' },
      check: { type: 'boolean', describe: 'persist: change nothing; say what the CA would decide (exit 0 or 8)' },
      remove: { type: 'boolean', describe: "persist: delete the issuer's record (other issuers' records stay)" },
    },
    actions: {
      persist: {
        usage: [
          'ddedge acme persist DOMAIN --issuer NAME --account-uri URI [--wildcard] [--until TIME] [--ttl SECONDS]',
          'ddedge acme persist DOMAIN --issuer NAME [--account-uri URI] [--wildcard] --check',
          'ddedge acme persist DOMAIN --issuer NAME --remove',
        ].join('\n'),
        describe: [
          'Keeps the DNS-PERSIST-01 record (draft-ietf-acme-dns-persist) of DOMAIN through the registrar API:',
          'one TXT record at _validation-persist.DOMAIN,',
          '  "ISSUER; accounturi=URI[; policy=wildcard][; persistUntil=UNIX-TIME]"',
          'An equal record costs no write; a different one for the issuer is replaced; the records of other',
          'issuers stay. A CA that offers dns-persist-01 then validates DOMAIN for that account at every',
          'issuance, with no challenge record to write.',
          '--until: a time (2027-06-30, UTC unless it names its zone), a duration from now (180d) or a Unix',
          "time in seconds; without it the record does not expire. --remove deletes the issuer's record.",
          "--ttl: the record's TTL in seconds, 60 to 604800 (as the agent's --ttl; DDEDGE_TTL is not read here);",
          "without it a new record gets the provider's and a kept one keeps its own. The same TTL costs no",
          'write; another one is an update in place.',
          '',
          "--check changes nothing: it asks the zone's authoritative servers (or --dns-server) and says what",
          'the CA would decide: valid for which account and policy, until when; or why not (exit 8).',
          'A daemon with the same state directory warns 14 days before persistUntil (notification event',
          'persist-expiring, and its status page).',
        ].join('\n'),
        flags: ['issuer', 'account-uri', 'wildcard', 'until', 'check', 'remove', 'json'],
      },
    },
    // lego runs `present <fqdn> <value>`: a base64url value starts with "-" once in 64.
    literalArguments: acmeLiteralArguments,
    load: () => import('./commands/acme.js'),
  },
  {
    name: 'notify',
    usage: 'ddedge notify test [URL …]',
    describe:
      'sends a test message to each URL given, or else to each --notify URL, and says how each went (exit 4 when ' +
      'one failed)',
    settings: true,
    positionals: true,
    flags: { json, 'env-file': envFile, dotenv },
    load: () => import('./commands/notify.js'),
  },
  {
    name: 'gateway',
    usage:
      'ddedge gateway --zone NAME --keys FILE [--dns-listen ADDR:PORT] [--listen ADDR:PORT] | ddedge gateway keygen ' +
      'NAME [--algorithm ALG] | ddedge gateway check-keys FILE | ddedge gateway acme-dns-account --keys FILE KEY ' +
      'DOMAIN...',
    describe:
      "the registrar's zones behind a DNS front door: TSIG-signed RFC 2136 updates and authoritative answers; make " +
      'a key, check a keys file',
    settings: true,
    positionals: true,
    flags: {
      'env-file': envFile,
      dotenv,
      ...tableFlags(GATEWAY_SETTINGS),
      algorithm: {
        type: 'string',
        describe: 'keygen: hmac-sha256 (default), hmac-sha384, hmac-sha512, hmac-sha224, hmac-sha1, hmac-md5',
      },
    },
    actions: {
      keygen: {
        usage: 'ddedge gateway keygen NAME [--algorithm ALG]',
        describe:
          "prints a new TSIG key, as BIND's tsig-keygen does: the client's copy, and the key clause to add to the " +
          "gateway's keys file (make both mode 0600)",
        flags: ['algorithm'],
      },
      'acme-dns-account': {
        usage: 'ddedge gateway acme-dns-account --keys FILE KEY DOMAIN...',
        describe:
          'prints the acme-dns accounts JSON of KEY for each DOMAIN, as lego (ACME_DNS_STORAGE_PATH) and ' +
          "cert-manager (the acmeDNS solver's secret) store it: the key's secret is in it, so write it to a file " +
          'only you can read; the TXT goes to _acme-challenge.DOMAIN (no CNAME); exit 2 when the key may not write it',
        flags: ['keys'],
      },
      'check-keys': {
        usage: 'ddedge gateway check-keys FILE',
        describe: [
          'reads a keys file as the gateway would and prints what each key may change; exit 2 with the line of the ' +
            'first error (never a secret), or when others may read the file.',
          '',
          'The keys file (BIND syntax):',
          '  key "NAME" { algorithm hmac-sha256; secret "BASE64"; };',
          '  grant "NAME" zonesub [TYPE ...];            the whole zone (no name after zonesub)',
          '  grant "NAME" subdomain DOMAIN [TYPE ...];   DOMAIN and every name below it',
          '  grant "NAME" name DOMAIN [TYPE ...];        DOMAIN only',
          '  grant "NAME" wildcard *.DOMAIN [TYPE ...];  every name below DOMAIN',
          '  transfer "NAME";                            may take the zone by AXFR',
          'TYPE: A, AAAA, CNAME, MX, SRV, TXT, NS, CAA, DHCID (none: all).',
        ].join('\n'),
      },
    },
    load: () => import('./commands/gateway.js'),
  },
];

export const findCommand = (name: string): CommandSpec | undefined => COMMANDS.find((c) => c.name === name);
