import { runCycle } from '../../agent/cycle.js';
import { runDaemon } from '../../agent/daemon.js';
import type { CommandContext } from '../registry.js';
import { setup } from '../setup.js';

export async function run(context: CommandContext): Promise<number> {
  const { config, logger } = await setup(context, 'cycle');
  return runDaemon({
    config,
    logger,
    reload: async () => (await setup(context, 'cycle')).config,
    cycle: (current) => runCycle({ config: current, logger }),
  });
}
