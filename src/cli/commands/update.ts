import { runEdgeCycle } from '../../agent/edge.js';
import { redact } from '../../text/redact.js';
import type { CommandContext } from '../command.js';
import { printJson, setup } from '../setup.js';

export async function run(context: CommandContext): Promise<number> {
  const { config, logger } = await setup(context, 'cycle');
  const report = await runEdgeCycle({ config, logger, dryRun: Boolean(context.flags['dry-run']), force: Boolean(context.flags.force) });
  if (context.flags.json) {
    const hosts = report.outcomes.map(({ host, type, address, action, via, message, prefix }) => ({ host, type, address, action, via, message: redact(message), ...(prefix && { prefix }) }));
    printJson(context, { hosts, exitCode: report.exitCode });
  } else {
    for (const o of report.outcomes) context.io.stdout(`${o.host} ${o.type} ${o.address} ${o.action}\n`);
  }
  return report.exitCode;
}
