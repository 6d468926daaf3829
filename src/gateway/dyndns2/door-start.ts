// The door started beside the DNS listeners, on the gateway's own keys, zone views, update
// queue, budget and refusal log (run.ts gives them): nothing of its own but the HTTP side, the
// wrong-password memory and its answer counts.
import { counted } from '../../lib/counted.js';
import { ConfigError } from '../../lib/errors.js';
import type { Logger } from '../../lib/log.js';
import type { RefusalLog } from '../limits/refusal-log.js';
import type { UpdateDeps } from '../update/handler.js';
import { GuessLimit } from '../limits/guess-limit.js';
import type { Dyndns2Code } from './host-update.js';
import { startDyndns2Listener, type Dyndns2Listener, type OtherProtocols } from './listener.js';
import type { Dyndns2Settings } from '../../config/gateway-settings.js';

export interface Dyndns2Door {
  listeners: Dyndns2Listener[];
  /** Answers given, by code (for /metrics). */
  counts: Map<Dyndns2Code, number>;
  close(): Promise<void>;
}

export async function startDyndns2Door(
  settings: Dyndns2Settings,
  deps: UpdateDeps & {
    refusals: RefusalLog;
    logger: Logger;
    allowPrivateIp: boolean;
    budgetSpent: () => boolean;
    /** The door's other protocols (httpreq, acme-dns), given each request first. */
    otherProtocols?: OtherProtocols;
  },
): Promise<Dyndns2Door> {
  const counts = new Map<Dyndns2Code, number>();
  const doorDeps = { ...deps, prefixHosts: settings.prefixHosts, guesses: new GuessLimit(), counts };
  const flags = settings.flags ?? { listen: '--http-listen', cert: '--http-cert', key: '--http-key' };
  const listeners: Dyndns2Listener[] = [];
  const close = async () => void (await Promise.all(listeners.map((l) => l.close())));
  try {
    for (const address of settings.listen)
      listeners.push(await startDyndns2Listener(address, settings.tls, doorDeps, flags.listen));
  } catch (error) {
    await close();
    // A certificate and key that do not go together, or a key TLS cannot read, is the user's to fix (exit 2).
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`${flags.cert}/${flags.key}: ${(error as Error).message}`);
  }
  for (const [i, address] of settings.listen.entries()) {
    if (!address.loopback && !settings.tls)
      deps.logger.warn(
        `gateway: ${flags.listen} ${listeners[i]!.url} is plain HTTP beyond this machine: keys' secrets cross the ` +
          `network readable; give ${flags.cert} and ${flags.key}`,
      );
  }
  const urls = listeners.map((l) => `${l.url}/nic/update`).join(', ');
  const behind = settings.prefixHosts.size
    ? `; ${counted(settings.prefixHosts.size, 'host')} behind routers (--prefix-host)`
    : '';
  deps.logger.info(`gateway: answering dyndns2 updates at ${urls}${behind}`);
  if (deps.otherProtocols) {
    const bases = listeners.map((l) => l.url).join(', ');
    deps.logger.info(`gateway: answering httpreq (/present, /cleanup) and acme-dns (/update) at ${bases}`);
  }
  return { listeners, counts, close };
}
