// ddedge gateway: the registrar's zones behind a DNS front door (CONTRACT.md "The DNS gateway").
// Without an action it serves (src/gateway/run.ts); `keygen` makes a TSIG key; `check-keys
// FILE` reads a keys file as the gateway would and says what each key may do (secrets never shown);
// `acme-dns-account --keys FILE KEY DOMAIN...` prints the acme-dns accounts JSON of a key (its secret, for the client).
// Its settings are read with the configuration's table (config/gateway-settings.ts).
import { constants } from 'node:os';
import { resolve } from 'node:path';
import { readGatewaySettings, type GatewayConfig } from '../../config/gateway-settings.js';
import { ConfigError } from '../../lib/errors.js';
import type { Logger } from '../../lib/log.js';
import { collectBeforeExit, keepGatewayHeapSmall } from '../../lib/long-running-heap.js';
import { runAction } from '../actions.js';
import type { CommandContext } from '../command.js';
import { setup } from '../setup.js';
import { counted } from '../../lib/counted.js';

export function run(context: CommandContext): Promise<number> {
  const { flags, io } = context;
  return runAction(
    {
      command: 'gateway',
      none: { said: 'none to serve', run: () => serve(context) },
      actions: {
        async keygen([name, ...extra]) {
          if (extra.length) throw new ConfigError(`gateway keygen: ${counted(extra.length, 'unexpected argument')}`);
          if (!name)
            throw new ConfigError('gateway keygen: give the key name: ddedge gateway keygen NAME [--algorithm ALG]');
          const { keygenText } = await import('../../gateway/keys/keygen.js');
          io.stdout(keygenText(name, (flags.algorithm as string | undefined) ?? undefined));
          return 0;
        },
        async 'acme-dns-account'([key, ...domains]) {
          const file = (flags.keys as string | undefined) ?? io.env.DDEDGE_GATEWAY_KEYS_FILE;
          if (!file || !key)
            throw new ConfigError(
              'gateway acme-dns-account: give the keys file, the key and its domains: ddedge gateway ' +
                'acme-dns-account --keys FILE KEY DOMAIN...',
            );
          const [{ loadKeysFile }, { acmeDnsAccounts }] = await Promise.all([
            import('../../gateway/keys/keys-file.js'),
            import('../../gateway/acme-http/accounts.js'),
          ]);
          const accounts = acmeDnsAccounts(loadKeysFile(resolve(io.cwd, file)), key, domains);
          if (typeof accounts === 'string') throw new ConfigError(`gateway acme-dns-account: ${accounts}`);
          io.stdout(`${JSON.stringify(accounts, null, 2)}\n`);
          return 0;
        },
        async 'check-keys'([argument, ...extra]) {
          if (extra.length)
            throw new ConfigError(`gateway check-keys: ${counted(extra.length, 'unexpected argument')}`);
          const file = argument ?? (flags.keys as string | undefined);
          if (!file) throw new ConfigError('gateway check-keys: give the keys file: ddedge gateway check-keys FILE');
          const { loadKeysFile } = await import('../../gateway/keys/keys-file.js');
          const keys = loadKeysFile(resolve(io.cwd, file));
          for (const warning of keys.warnings) io.stderr(`gateway: warning: ${warning}\n`);
          for (const [name, key] of keys.keys) {
            const grants = keys.grants
              .filter((g) => g.key === name)
              .map(
                (g) =>
                  `${g.rule}${g.name ? ` ${g.rule === 'wildcard' ? '*.' : ''}${g.name}` : ''}${
                    g.types.length ? ` ` + `${g.types.join(' ')}` : ''
                  }`,
              );
            io.stdout(
              `${name} ${key.algorithm}: ` +
                `${grants.length ? grants.join('; ') : 'no grants'}${keys.transfer.has(name) ? '; transfer' : ''}\n`,
            );
          }
          return 0;
        },
      },
    },
    context.positionals,
  );
}

async function serve(context: CommandContext): Promise<number> {
  const { io } = context;
  io.outputNeverBlocks?.(collectBeforeExit);
  keepGatewayHeapSmall();
  let gateway!: GatewayConfig;
  const { config, logger } = await setup(context, 'gateway', (pass) => (gateway = readGatewaySettings(pass)));
  // A primary name without a dot (`SOA vm.` in a transfer) is worth a warning: a client that follows the SOA
  // (nsupdate without `server`) must reach the gateway by that name. Said once the start is past its fatal checks:
  // before an error that stops it, it is only noise.
  const startWarnings: string[] = [];
  if (!gateway.primaryGiven && !gateway.primaryName.includes('.')) {
    startWarnings.push(
      `gateway: the SOA and NS name this gateway "${gateway.primaryName}" (the host name, not a full name): a ` +
        `client that finds the primary from the SOA cannot reach it; set --primary-name to a name that resolves to ` +
        `this gateway`,
    );
  }
  const { runGateway } = await import('../../gateway/run.js');
  const signals = stopSignals(logger);
  // SIGHUP from the start: before the gateway answers, the keys file is still to be read, so a
  // reload then is nothing to do (Node's default would end the process).
  let reload = () => logger.info('gateway: SIGHUP while starting; the keys file is read at start');
  const onHangup = () => reload();
  process.on('SIGHUP', onHangup);
  try {
    const code = await runGateway({
      zones: gateway.zones,
      keysFile: resolve(io.cwd, gateway.keysFile),
      listen: gateway.listen,
      primaryName: gateway.primaryName,
      refreshMs: gateway.refreshMs,
      notify: gateway.notify,
      notifyUrls: gateway.notifyUrls,
      config,
      timeoutMs: config.timeoutMs,
      stateDir: config.stateDir,
      hosts: config.hosts,
      maxCallsPerHour: gateway.maxCallsPerHour,
      httpListen: gateway.httpListen,
      dyndns2: gateway.dyndns2,
      allowPrivateIp: config.allowPrivateIp,
      listenToken: config.listenToken,
      listenTls: config.listenTls,
      logger,
      startWarnings,
      stopped: signals.stopped,
      stoppedNow: signals.stoppedNow,
      onReload: (reloadKeys) => {
        signals.started();
        reload = reloadKeys;
      },
    });
    const forcedBy = signals.forcedBy();
    return forcedBy ? 128 + constants.signals[forcedBy] : code;
  } finally {
    signals.dispose();
    process.off('SIGHUP', onHangup);
  }
}

/**
 * The first SIGTERM/SIGINT stops it once the updates in flight are answered (said when it comes while the
 * gateway starts: the start is finished first); a second one stops it at once (exit 128 + the signal's
 * number, as its default action would), and a third meets that default.
 */
function stopSignals(logger: Logger) {
  let stop = () => {};
  const stopped = new Promise<void>((r) => (stop = r));
  let stopNow = (_signal: NodeJS.Signals) => {};
  const stoppedNow = new Promise<NodeJS.Signals>((r) => (stopNow = r));
  let signals = 0;
  let forcedBy: NodeJS.Signals | undefined;
  let starting = true;
  const onStop = (signal: NodeJS.Signals) => {
    if (++signals === 1 && starting)
      logger.info(
        `gateway: ${signal} while starting: it stops once the zones are read (${signal} again stops at once)`,
      );
    if (signals === 1) return stop();
    dispose();
    forcedBy = signal;
    stopNow(signal);
  };
  const dispose = () => {
    process.off('SIGTERM', onStop);
    process.off('SIGINT', onStop);
  };
  process.on('SIGTERM', onStop);
  process.on('SIGINT', onStop);
  return { stopped, stoppedNow, forcedBy: () => forcedBy, started: () => (starting = false), dispose };
}
