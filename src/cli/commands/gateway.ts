// ddedge gateway: the registrar's zones behind a DNS front door (CONTRACT.md "The DNS gateway").
// Without an action it serves (src/gateway/run.ts); `keygen` makes a TSIG key; `check-keys
// FILE` reads a keys file as the gateway would and says what each key may do (secrets never shown).
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { parseDuration } from '../../lib/duration.js';
import { ConfigError } from '../../lib/errors.js';
import { lowerName } from '../../lib/names.js';
import type { CommandContext } from '../command.js';
import { nearestNames } from '../nearest-names.js';
import { setup } from '../setup.js';
import { isNotifyUrl } from '../../config/load.js';
import { parseNotifyTarget } from '../../notify/target.js';

const ACTIONS = ['keygen', 'check-keys'];

export async function run(context: CommandContext): Promise<number> {
  const { flags, positionals, io } = context;
  const [action, argument, ...extra] = positionals;
  if (!action) return serve(context);
  if (!ACTIONS.includes(action)) {
    const near = nearestNames(action, ACTIONS);
    throw new ConfigError(`gateway: unknown action "${action}"; give none to serve, or one of ${ACTIONS.join(', ')}${near.length ? ` (did you mean ${near.join(' or ')}?)` : ''}`);
  }
  if (extra.length) throw new ConfigError(`gateway ${action}: ${extra.length} unexpected argument(s)`);
  if (action === 'keygen') {
    if (!argument) throw new ConfigError('gateway keygen: give the key name: ddedge gateway keygen NAME [--algorithm ALG]');
    const { keygenText } = await import('../../gateway/keygen.js');
    io.stdout(keygenText(argument, (flags.algorithm as string | undefined) ?? undefined));
    return 0;
  }
  const file = argument ?? (flags.keys as string | undefined);
  if (!file) throw new ConfigError('gateway check-keys: give the keys file: ddedge gateway check-keys FILE');
  const { loadKeysFile } = await import('../../gateway/keys-file.js');
  const keys = loadKeysFile(resolve(io.cwd, file), (path) => readFileSync(path, 'utf8'));
  for (const warning of keys.warnings) io.stderr(`gateway: warning: ${warning}\n`);
  for (const [name, key] of keys.keys) {
    const grants = keys.grants.filter((g) => g.key === name).map((g) => `${g.rule}${g.name ? ` ${g.rule === 'wildcard' ? '*.' : ''}${g.name}` : ''}${g.types.length ? ` ${g.types.join(' ')}` : ''}`);
    io.stdout(`${name} ${key.algorithm}: ${grants.length ? grants.join('; ') : 'no grants'}${keys.transfer.has(name) ? '; transfer' : ''}\n`);
  }
  return 0;
}

async function serve(context: CommandContext): Promise<number> {
  const { flags, io } = context;
  io.outputNeverBlocks?.();
  const { config, logger, env } = await setup(context, 'gateway');
  const list = (flag: string, variable: string): string[] =>
    ((flags[flag] as string[] | undefined) ?? (env[variable] ? [env[variable]!] : [])).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  const zones = list('zone', 'DDEDGE_GATEWAY_ZONES').map(lowerName);
  if (!zones.length) throw new ConfigError('gateway: name the zones to serve: --zone NAME (repeatable) or DDEDGE_GATEWAY_ZONES');
  // LoadCredential=gateway-keys:FILE, or a directory of credentials (LoadCredential=ddedge:DIR) naming it ddedge_gateway-keys.
  const credential = env.CREDENTIALS_DIRECTORY ? ['gateway-keys', 'ddedge_gateway-keys'].map((name) => join(env.CREDENTIALS_DIRECTORY!, name)).find((path) => existsSync(path)) : undefined;
  const keysFile = (flags.keys as string | undefined) ?? env.DDEDGE_GATEWAY_KEYS_FILE ?? credential;
  if (!keysFile) throw new ConfigError('gateway: give the keys file: --keys FILE, DDEDGE_GATEWAY_KEYS_FILE or the gateway-keys credential (ddedge gateway keygen NAME makes a key)');
  const listen = (list('dns-listen', 'DDEDGE_GATEWAY_LISTEN').length ? list('dns-listen', 'DDEDGE_GATEWAY_LISTEN') : ['127.0.0.1:53']).map(listenAddress);
  // --notify takes both, told apart by form: a URL (scheme://…, read by the configuration with
  // DDEDGE_NOTIFY, its _FILE and credential) gets notifications; HOST[:PORT] is a DNS secondary.
  const notifyValues = list('notify', 'DDEDGE_GATEWAY_NOTIFY');
  const notify = notifyValues.filter((t) => !isNotifyUrl(t)).map((t) => (/:\d{1,5}$/.test(t) && !/^[^\[].*:.*:/.test(t) ? listenAddress(t) : { host: t.replace(/^\[|\]$/g, ''), port: 53 }));
  const notifyUrls = [...new Set([...config.notify, ...notifyValues.filter(isNotifyUrl).map((url) => (parseNotifyTarget(url, 'DDEDGE_GATEWAY_NOTIFY'), url))])];
  const refreshText = (flags.refresh as string | undefined) ?? env.DDEDGE_GATEWAY_REFRESH ?? '60s';
  const refreshMs = parseDuration(refreshText);
  if (refreshMs === undefined || refreshMs < 1000) throw new ConfigError(`--refresh: "${refreshText}" is not a duration of 1s or more`);
  const primaryGiven = (flags['primary-name'] as string | undefined) ?? env.DDEDGE_GATEWAY_PRIMARY_NAME;
  const primaryName = lowerName(primaryGiven ?? hostname());
  // A trial found `SOA vm.` in a transfer: a client that follows the SOA (nsupdate without `server`) must reach the gateway by that name.
  // Said once the start is past its fatal checks: before an error that stops it, it is only noise.
  const startWarnings: string[] = [];
  if (!primaryGiven && !primaryName.includes('.')) {
    startWarnings.push(`gateway: the SOA and NS name this gateway "${primaryName}" (the host name, not a full name): a client that finds the primary from the SOA cannot reach it; set --primary-name to a name that resolves to this gateway`);
  }
  // The gateway's budget is its own (src/gateway/call-budget.ts), 600 unless set: the agent's default of 60 would not carry a zone's updates.
  const budgetGiven = flags['max-calls-per-hour'] !== undefined || env.DDEDGE_MAX_CALLS_PER_HOUR !== undefined;
  const { GATEWAY_CALLS_PER_HOUR } = await import('../../gateway/call-budget.js');
  if (!config.api.user || !config.api.password) throw new ConfigError('gateway: set DDEDGE_API_USER and DDEDGE_API_PASSWORD (or --api-user, DDEDGE_API_PASSWORD_FILE, the api-password credential)');
  const { readDyndns2Settings } = await import('../../gateway/dyndns2/settings.js');
  const dyndns2 = readDyndns2Settings(list, (flag, variable) => (flags[flag] as string | undefined) ?? env[variable]);
  const { runGateway } = await import('../../gateway/run.js');
  let stop = () => {};
  const stopped = new Promise<void>((r) => (stop = r));
  const onStop = () => stop();
  process.once('SIGTERM', onStop);
  process.once('SIGINT', onStop);
  // SIGHUP from the start: before the gateway answers, the keys file is still to be read, so a
  // reload then is nothing to do (Node's default would end the process).
  let reload = () => logger.info('gateway: SIGHUP while starting; the keys file is read at start');
  const onHangup = () => reload();
  process.on('SIGHUP', onHangup);
  try {
    return await runGateway({
      zones,
      keysFile: resolve(io.cwd, keysFile),
      listen,
      primaryName,
      refreshMs,
      notify,
      notifyUrls,
      api: { url: config.api.url, user: config.api.user, password: config.api.password },
      timeoutMs: config.timeoutMs,
      stateDir: config.stateDir,
      hosts: config.hosts,
      maxCallsPerHour: budgetGiven ? config.maxCallsPerHour : GATEWAY_CALLS_PER_HOUR,
      httpListen: config.listen,
      dyndns2,
      allowPrivateIp: config.allowPrivateIp,
      listenToken: config.listenToken,
      logger,
      startWarnings,
      stopped,
      onReload: (reloadKeys) => (reload = reloadKeys),
    });
  } finally {
    process.off('SIGTERM', onStop);
    process.off('SIGINT', onStop);
    process.off('SIGHUP', onHangup);
  }
}

function listenAddress(text: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(text);
  const port = Number(match?.[3]);
  if (!match || port > 65535) throw new ConfigError(`--dns-listen: "${text}" is not ADDR:PORT (e.g. 127.0.0.1:53, [::1]:53)`);
  return { host: match[1] ?? match[2]!, port };
}
