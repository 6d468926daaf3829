// ddedge acme persist DOMAIN --issuer NAME --account-uri URI [--wildcard] [--until TIME] [--ttl SECONDS]
//   keeps the DNS-PERSIST-01 record at _validation-persist.DOMAIN (--remove deletes it), or with
//   --check says what a CA would see there now (exit 0 when it would validate, 8 when not).
import { createDnsTxtLookup } from '../../acme/dns-lookup.js';
import { checkPersistRecord, type PersistCheckReport } from '../../acme/persist-check.js';
import { persistUntilText } from '../../acme/persist-record.js';
import {
  persistAccountUri,
  persistIssuer,
  persistRecordName,
  persistUntilOf,
  type PersistTarget,
} from '../../acme/persist-target.js';
import { keepPersistRecord, removePersistRecord, type PersistReport } from '../../acme/persist.js';
import { apiClientFrom } from '../../config/api-client.js';
import { requireApiCredentials } from '../../config/api-credentials.js';
import { parseDnsServer } from '../../dns/client/index.js';
import { ConfigError, ExitCode } from '../../lib/errors.js';
import { bound } from '../../lib/outside-text.js';
import { providerZone } from '../../zone/provider/provider-zone.js';
import type { CommandContext } from '../command.js';
import { printJson, setup } from '../setup.js';

type Mode = 'keep' | 'remove' | 'check';

interface PersistArguments {
  mode: Mode;
  domain: string;
  issuer: string;
  accountUri?: string;
  wildcard: boolean;
  persistUntil?: number;
  /** --ttl given on the command line (DDEDGE_TTL is the agent's records' TTL, not this record's). */
  ttlGiven: boolean;
}

export async function runPersist(context: CommandContext, args: string[]): Promise<number> {
  // Checked before any configuration is read: a wrong call changes nothing and costs nothing.
  const given = persistArguments(context, args);
  const { config, logger } = await setup(context, 'state');
  const where = persistRecordName(given.domain, config.service);
  if (given.mode === 'check') {
    const origin = context.flags['dns-server'] ? '--dns-server' : 'DDEDGE_DNS_SERVERS';
    const report = await checkPersistRecord({
      name: where.name,
      zone: where.service,
      servers: config.acme.dnsServers.map((text) => parseDnsServer(text, origin)),
      question: {
        issuer: given.issuer,
        accountUri: given.accountUri,
        wildcard: given.wildcard,
        now: Math.floor(Date.now() / 1000),
      },
      lookup: createDnsTxtLookup(),
      timeoutMs: Math.min(config.timeoutMs, 10_000),
    });
    if (context.flags.json) printCheckJson(context, report);
    else context.io.stdout(describeCheck(report));
    return report.valid ? ExitCode.ok : ExitCode.drift;
  }
  requireApiCredentials(config, 'acme persist changes a DNS record through the registrar API');
  const client = apiClientFrom(config, logger);
  try {
    const persist = { provider: providerZone(client, where.service), stateDir: config.stateDir, logger };
    const report =
      given.mode === 'remove'
        ? await removePersistRecord(persist, { ...where, issuer: given.issuer })
        : await keepPersistRecord(persist, {
            ...given,
            ...where,
            accountUri: given.accountUri!,
            // Read and checked (60 to 604800) with the configuration, as the agent's --ttl.
            ...(given.ttlGiven ? { ttl: config.ttl } : {}),
          } as PersistTarget);
    if (context.flags.json) printJson(context, report);
    else context.io.stdout(describeWrite(report, given.persistUntil, given.ttlGiven ? config.ttl : undefined));
    return ExitCode.ok;
  } finally {
    await client.close();
  }
}

function persistArguments(context: CommandContext, args: string[]): PersistArguments {
  const { flags } = context;
  if (args.length !== 1)
    throw new ConfigError(`acme persist: expected one DOMAIN (the name certificates are for), got ${args.length}`);
  const mode: Mode = flags.check === true ? 'check' : flags.remove === true ? 'remove' : 'keep';
  if (flags.check === true && flags.remove === true)
    throw new ConfigError('acme persist: --check or --remove, not both');
  const text = (name: string): string | undefined =>
    typeof flags[name] === 'string' ? (flags[name] as string) : undefined;
  if (mode !== 'keep') {
    // All at once: the same command with --remove or --check added is the usual way here.
    const meaningless = (mode === 'remove' ? ['account-uri', 'wildcard', 'until', 'ttl'] : ['until', 'ttl'])
      .filter((name) => flags[name] !== undefined)
      .map((name) => `--${name}`);
    if (meaningless.length)
      throw new ConfigError(
        `acme persist: ${listed(meaningless)} ${meaningless.length > 1 ? 'have' : 'has'} no meaning with --${mode}`,
      );
  }
  const wildcard = flags.wildcard === true;
  persistRecordName(args[0]!, undefined);
  return {
    mode,
    domain: args[0]!,
    issuer: persistIssuer(text('issuer')),
    accountUri:
      mode === 'keep' || text('account-uri') !== undefined ? persistAccountUri(text('account-uri')) : undefined,
    wildcard,
    persistUntil: mode === 'keep' ? persistUntilOf(text('until'), Date.now()) : undefined,
    ttlGiven: flags.ttl !== undefined,
  };
}

const listed = (names: string[]): string =>
  names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names.join('');

function describeWrite(report: PersistReport, persistUntil: number | undefined, ttl: number | undefined): string {
  const others = report.otherRecords ? `; ${report.otherRecords} other TXT record(s) there left as they were` : '';
  if (report.action === 'deleted' || report.action === 'absent')
    return (
      `${report.name} TXT for ${report.issuer} ` +
      `${report.action === 'deleted' ? 'removed' : 'absent; nothing to remove'}${others}\n`
    );
  const words = { created: 'added', updated: 'replaced', unchanged: 'already there; nothing written' }[report.action];
  const until = persistUntil === undefined ? 'no expiry' : `valid until ${persistUntilText(persistUntil)}`;
  const ttlText = ttl === undefined ? '' : `TTL ${ttl}, `;
  return `${report.name} TXT "${report.record}" ${words} (${ttlText}${until})${others}\n`;
}

/** C1 controls, DEL, line separators and bidi controls: JSON keeps them as they are, a terminal obeys them. */
const JSON_UNPRINTABLE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** --check --json: the texts as the name servers answered them, each control in JSON's \u form (C0 is already). */
function printCheckJson(context: CommandContext, report: PersistCheckReport): void {
  const stdout = (text: string) =>
    context.io.stdout(text.replace(JSON_UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  printJson({ ...context, io: { ...context.io, stdout } }, report);
}

function describeCheck(report: PersistCheckReport): string {
  const lines: string[] = [];
  for (const answer of report.servers) {
    const verdict = answer.verdict;
    if (!verdict) lines.push(`${answer.server}: no answer (${answer.error})`);
    else if (verdict.valid) {
      const { params } = verdict;
      const scope = verdict.wildcard ? 'the domain, its wildcard and every name below it' : 'the domain only';
      const until = params.persistUntil === undefined ? 'no expiry' : `until ${persistUntilText(params.persistUntil)}`;
      // Without --account-uri, the account is whatever the server answered: at most what --account-uri takes.
      lines.push(`${answer.server}: valid for account ${bound(params.accountUri, 1024)}, ${scope}, ${until}`);
    } else lines.push(`${answer.server}: not valid: ${verdict.reasons.join('; ')}`);
  }
  const head = report.valid
    ? `${report.name}: ${report.issuer} would accept this record`
    : `${report.name}: ${report.issuer} would not accept this record`;
  return `${head}\n${lines.map((l) => `  ${l}`).join('\n')}\n`;
}
