import { runEdgeCycle } from '../../agent/cycle-watchers.js';
import { redact } from '../../lib/redact.js';
import type { CommandContext } from '../command.js';
import { printJson, setup } from '../setup.js';

export async function run(context: CommandContext): Promise<number> {
  const { config, logger } = await setup(context, 'cycle');
  const report = await runEdgeCycle({
    config,
    logger,
    dryRun: Boolean(context.flags['dry-run']),
    force: Boolean(context.flags.force),
  });
  if (context.flags.json) {
    const hosts = report.outcomes.map(({ host, type, address, action, via, message, prefix }) => ({
      host,
      type,
      address,
      action,
      via,
      message: redact(message),
      ...(prefix && { prefix }),
    }));
    printJson(context, { hosts, exitCode: report.exitCode });
  } else {
    for (const o of report.outcomes) context.io.stdout(`${o.host} ${o.type} ${o.address} ${o.action}\n`);
  }
  if (config.notify.length && report.notices?.length) {
    // A one-shot run waits for its notifications, within a bound: the process ending would drop them.
    const { sharedNotifier } = await import('../../notify/notifier.js');
    await sharedNotifier(config.notify, logger).drain(NOTIFY_WAIT_MS);
  }
  return report.exitCode;
}

/** Three attempts with their pauses fit in it; a service slower than that is given up. */
const NOTIFY_WAIT_MS = 30_000;
