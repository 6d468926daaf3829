// ddedge zone export|plan|apply: the zone of a hosting service as a reviewed file. Reads the
// settings, the file and the live zone, and prints what src/zone/ decided; nothing is decided here.
import { resolve } from 'node:path';
import { writeFileAtomic } from '../../lib/atomic-write.js';
import { registeredDomain } from '../../lib/registered-domain.js';
import { errnoText } from '../../lib/errno-text.js';
import { ConfigError, ExitCode } from '../../lib/errors.js';
import { canonicalName } from '../../lib/names.js';
import type { LiveRecord } from '../../zone/record.js';
import { parseIgnore } from '../../zone/plan/ownership.js';
import { applyExitCode, applyJson, applyLines, planJson, planLines } from '../../zone/apply/plan-report.js';
import { providerZone } from '../../zone/provider/provider-zone.js';
import { IncompleteListingError } from '../../zone/provider/zone-listing.js';
import { zoneTransport } from '../../zone/provider/zone-transport.js';
import { applyFromProvider, planFromProvider, type PlanReport, type PlanSettings } from '../../zone/apply/session.js';
import {
  noZoneNamedBy,
  originOf,
  readableZoneText,
  readZoneText,
  zoneAsJson,
  zoneAsMasterFile,
} from '../../zone/apply/zone-files.js';
import { apiClientFrom } from '../../config/api-client.js';
import { requireApiCredentials } from '../../config/api-credentials.js';
import { runAction } from '../actions.js';
import type { CommandContext } from '../command.js';
import { printJson, setup } from '../setup.js';
import { readZoneInput } from '../zone-input.js';
import { vetExportOutput } from '../zone-output.js';
import type { Logger } from '../../lib/log.js';
import { unwritableRecords } from '../../zone/plan/unwritable.js';
import { counted } from '../../lib/counted.js';
import { keepYoungGenerationSmall } from '../../zone/young-generation.js';

const ACTIONS = ['export', 'plan', 'apply'] as const;

export function run(context: CommandContext): Promise<number> {
  const actions = Object.fromEntries(
    ACTIONS.map((action) => [action, (args: string[]) => zoneAction(context, action, args)]),
  );
  return runAction({ command: 'zone', actions }, context.positionals);
}

async function zoneAction(
  context: CommandContext,
  action: (typeof ACTIONS)[number],
  [file, ...extra]: string[],
): Promise<number> {
  const { flags, io } = context;
  const { format, method } = zoneArguments(action, file, extra.length, flags);

  const { config, logger } = await setup(context, 'state');
  // Before the zone is read: a zone command's records live until it ends.
  keepYoungGenerationSmall();
  const { text, shown } = file
    ? await readZoneInput(file, io.cwd, undefined, (notice) => io.stderr(notice))
    : { text: undefined, shown: undefined };
  const service = serviceOf(config.service, text, config.hosts, shown);
  const ignore = ((flags.ignore as string[] | undefined) ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  for (const rule of ignore) parseIgnore(rule, service);
  const wanted =
    text !== undefined
      ? readZoneText(text, { zone: service, file: shown!, skipUnsupported: Boolean(flags['skip-unsupported']) })
      : undefined;
  requireApiCredentials(config, 'zone');
  const client = apiClientFrom(config, logger, { transport: zoneTransport() });
  const provider = providerZone(client, service);
  const settings: PlanSettings = {
    service,
    hosts: config.hosts,
    ignore,
    keepUnlisted: Boolean(flags['keep-unlisted']),
    method: method as PlanSettings['method'],
    stateDir: config.stateDir,
    logger,
  };
  try {
    if (action === 'export') return await exportZone(context, provider, service, format, config, logger);
    if (action === 'plan' || flags['dry-run']) {
      const report = await planFromProvider(provider, wanted!, settings);
      if (flags.json) printJson(context, planJson(report));
      else writeLines(io, planLines(report));
      if (report.incomplete && !flags.json)
        io.stderr(`zone plan: the plan above is not reliable and cannot be applied: ${report.incomplete}\n`);
      return planExitCode(report, Boolean(flags['expect-no-changes']));
    }
    const force = Boolean(flags.force);
    let planShown = false;
    // The plan goes out before the first change: a reviewer (or a CI log) sees what is about
    // to happen even when the provider is slow or the run is killed half-way.
    const onPlan = (planned: PlanReport) => {
      if (flags.json) return;
      writeLines(io, planLines(planned, { force }));
      planShown = true;
    };
    const report = await applyFromProvider(provider, wanted!, {
      ...settings,
      stateDir: config.stateDir,
      force,
      logger,
      onPlan,
      account: `${config.api.url}\n${config.api.user}`,
    });
    const code = applyExitCode(report);
    if (flags.json) printJson(context, applyJson(report, code));
    else {
      if (!planShown) writeLines(io, planLines(report, { force }));
      const lines = applyLines(report);
      if (lines.length && code) io.stderr(lines.join('\n') + '\n');
      else if (lines.length) io.stdout(lines.join('\n') + '\n');
    }
    return code;
  } finally {
    await client.close();
  }
}

/** Lines written a thousand at a time: a plan of 100,000 changes is never one string of all of them. */
function writeLines(io: CommandContext['io'], lines: Iterable<string>): void {
  let batch: string[] = [];
  for (const line of lines) {
    batch.push(line);
    if (batch.length === LINES_PER_WRITE) {
      io.stdout(`${batch.join('\n')}\n`);
      batch = [];
    }
  }
  if (batch.length) io.stdout(`${batch.join('\n')}\n`);
}
const LINES_PER_WRITE = 1000;

/** The arguments' checks before anything is read: the file, the format and the method. */
function zoneArguments(
  action: (typeof ACTIONS)[number],
  file: string | undefined,
  extraCount: number,
  flags: CommandContext['flags'],
): { format: 'bind' | 'json'; method: string } {
  // Named by count, never by text: a stray word may be half of an unquoted secret.
  if (extraCount)
    throw new ConfigError(
      `zone ${action}: ${counted(extraCount, 'unexpected argument')} after the file (quote a value that has spaces)`,
    );
  if (action === 'export' && file) throw new ConfigError(exportArgumentMessage(file));
  // A check that changed the zone, or a file asked for and never written, would pass unnoticed in a script.
  if (flags['expect-no-changes'] && action !== 'plan' && !(action === 'apply' && flags['dry-run']))
    throw new ConfigError(
      `zone ${action}: --expect-no-changes is for zone plan (or apply --dry-run), which check and change nothing; ` +
        'nothing was sent',
    );
  if (flags.output !== undefined && action !== 'export')
    throw new ConfigError(`zone ${action}: --output is for zone export; the ${action} is written to standard output`);
  if (flags.complete && (action !== 'export' || flags.format === 'json'))
    throw new ConfigError('--complete: for zone export in the bind format (a master file)');
  if (action !== 'export' && !file)
    throw new ConfigError(
      `zone ${action}: give the zone file: ddedge zone ${action} FILE (- reads it from standard input)`,
    );
  // `zone export --json` asks for JSON on stdout: the JSON form, unless another was named.
  if (action === 'export' && flags.json && flags.format === 'bind')
    throw new ConfigError('zone export: --json prints the JSON form; drop --format bind, or --json');
  const format = (flags.format as string | undefined) ?? (action === 'export' && flags.json ? 'json' : 'bind');
  if (format !== 'bind' && format !== 'json') throw new ConfigError(`--format: "${format}" is not bind or json`);
  const method = (flags.method as string | undefined) ?? 'auto';
  if (!['auto', 'calls', 'setzone'].includes(method))
    throw new ConfigError(`--method: "${method}" is not auto, calls or setzone`);
  return { format, method };
}

/** `zone export`: the provider's zone, whole, as a master file or its JSON form, to stdout or --output FILE. */
async function exportZone(
  context: CommandContext,
  provider: ReturnType<typeof providerZone>,
  service: string,
  format: 'bind' | 'json',
  config: Awaited<ReturnType<typeof setup>>['config'],
  logger: Logger,
): Promise<number> {
  const { flags, io } = context;
  // `--output -` is standard output, as in every Unix tool: never a file named "-".
  const path = flags.output && flags.output !== '-' ? resolve(io.cwd, flags.output as string) : undefined;
  if (path) vetExportOutput(path, flags.output as string);
  const { records: live, incomplete } = await provider.listing();
  // A file that misses entries deletes them when it is applied: none is written.
  if (incomplete) throw new IncompleteListingError(`zone export stopped: ${incomplete}; nothing was written`);
  const apex = flags.complete ? await apexLines(service, live, config.acme.dnsServers, config.timeoutMs) : [];
  const output = readableZoneText(
    format === 'json'
      ? jsonExport(service, live, logger)
      : zoneAsMasterFile(
          service,
          live,
          [`zone ${service} exported by ddedge from service/dnslist, ${new Date().toISOString()}`],
          apex,
        ),
    'zone export',
  );
  if (path) {
    try {
      writeFileAtomic(path, output, 0o644);
      io.stdout(`exported ${counted(live.length, 'record')} of ${service} to ${path}\n`);
    } catch (error) {
      throw new ConfigError(`--output: cannot write "${flags.output}": ${errnoText(error)}`);
    }
  } else io.stdout(output);
  return 0;
}

/** 4 for a plan made from a listing that may miss entries; 8 for a change under --expect-no-changes. */
function planExitCode(report: PlanReport, expectNoChanges: boolean): number {
  if (report.incomplete) return ExitCode.transient;
  return expectNoChanges && report.plan.changes.length ? ExitCode.drift : ExitCode.ok;
}

/**
 * `zone export example.com`: the zone was meant. The word is shown only when it reads as a
 * domain name; anything else may be half of an unquoted secret, so it is named by kind only.
 */
function exportArgumentMessage(word: string): string {
  const domain = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}\.?$/i.test(word)
    ? word.replace(/\.$/, '')
    : undefined;
  return domain
    ? `zone export: takes no argument; for the zone of ${domain} give --service ${domain} (and --output FILE to ` +
        `write a file)`
    : 'zone export: takes no argument; give the zone with --service NAME (and --output FILE to write a file)';
}

/**
 * The JSON form holds what a zone file can: records a master file cannot hold (unwritable.ts)
 * are left out and named on stderr, as the master file names them in comments. plan and apply
 * keep such records (a file that does not hold them never deletes them), so exporting and
 * applying the JSON unchanged changes nothing, as for the master file.
 */
function jsonExport(service: string, live: LiveRecord[], logger: Logger): string {
  const unwritable = unwritableRecords(service, live);
  for (const [record, { reason }] of unwritable)
    logger.warn(
      `zone export: left out of the JSON form, kept by plan and apply: ${record.name} ${record.type} (${reason})`,
    );
  return zoneAsJson(unwritable.size ? live.filter((r) => !unwritable.has(r)) : live);
}

/** --complete: the DNS client is loaded only for it. */
async function apexLines(
  service: string,
  live: LiveRecord[],
  dnsServers: string[],
  timeoutMs: number,
): Promise<string[]> {
  const [{ parseDnsServer }, { completeLines }] = await Promise.all([
    import('../../dns/client/index.js'),
    import('../../zone/file/complete-export.js'),
  ]);
  return completeLines(service, live, { servers: dnsServers.map((s) => parseDnsServer(s)), timeoutMs });
}

/** --service, else the file's $ORIGIN, else the registered domain of the only --host. */
function serviceOf(configured: string | undefined, text: string | undefined, hosts: string[], file?: string): string {
  const origin = configured === undefined && text !== undefined ? originOf(text, file) : undefined;
  const chosen =
    configured ??
    origin ??
    (new Set(hosts.map((h) => registeredDomain(h.split('=')[0]!))).size === 1
      ? registeredDomain(hosts[0]!.split('=')[0]!)
      : undefined);
  if (!chosen) {
    // A broken JSON file is told where it is broken, not only that it names no zone.
    const why = text !== undefined && file !== undefined ? noZoneNamedBy(text, file) : undefined;
    throw new ConfigError(
      `zone: which zone? ${why ? `${why}: ` : ''}give --service NAME (or DDEDGE_SERVICE), or a file with $ORIGIN`,
    );
  }
  return canonicalName(chosen) ?? chosen;
}
