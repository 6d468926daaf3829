import { runEdgeCycle } from '../../agent/edge.js';
import { runDaemon } from '../../agent/daemon.js';
import type { CommandContext } from '../command.js';
import { setup } from '../setup.js';

export async function run(context: CommandContext): Promise<number> {
  const { config, logger } = await setup(context, 'cycle');
  return runDaemon({
    config,
    logger,
    reload: async () => (await setup(context, 'cycle')).config,
    cycle: (current) => runEdgeCycle({ config: current, logger }),
  });
}
