import { runEdgeCycle } from '../../agent/cycle-watchers.js';
import { redact } from '../../lib/redact.js';
import type { CommandContext } from '../command.js';
import { printJson, setup } from '../setup.js';

export async function run(context: CommandContext): Promise<number> {
  const { config, logger } = await setup(context, 'cycle');
  const containers = config.containers
    ? await (await import('../../agent/container-source.js')).runningContainerNames(config, logger)
    : undefined;
  const report = await runEdgeCycle({
    config,
    logger,
    dryRun: Boolean(context.flags['dry-run']),
    force: Boolean(context.flags.force),
    containers: containers?.cycle,
  });
  // An engine that could not be read: the hosts are done, the containers' names were not looked at.
  if (containers?.unreadable && report.exitCode === 0) report.exitCode = report.outcomes.length ? 5 : 4;
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
    const names = report.containers?.records.map(({ host, type, value, action, message }) => ({
      host,
      type,
      value,
      action,
      message: redact(message),
    }));
    printJson(context, { hosts, ...(names ? { containers: names } : {}), exitCode: report.exitCode });
  } else {
    for (const o of report.outcomes) context.io.stdout(`${o.host} ${o.type} ${o.address} ${o.action}\n`);
    // The containers' CNAMEs and deletions (their A and AAAA are among the outcomes).
    const others = (report.containers?.records ?? []).filter((r) => r.type === 'CNAME' || r.action === 'deleted');
    for (const r of others) context.io.stdout(`${r.host} ${r.type} ${r.value} ${r.action}\n`);
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
