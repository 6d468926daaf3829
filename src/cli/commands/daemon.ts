import { runEdgeCycle } from '../../agent/edge.js';
import { runDaemon } from '../../agent/daemon.js';
import type { CommandContext } from '../command.js';
import { setup } from '../setup.js';

export async function run(context: CommandContext): Promise<number> {
  const { config, logger } = await setup(context, 'cycle');
  let current = config;
  // The HTTP endpoint (--listen) is started first, so that a taken port stops the daemon at once (exit 2).
  const endpoint = config.listen ? await (await import('../../endpoint/server.js')).startEndpoint({ listen: config.listen, config: () => current, logger }) : undefined;
  try {
    return await runDaemon({
      config,
      logger,
      reload: async () => (current = (await setup(context, 'cycle')).config),
      cycle: (next, { shutdown, asked }) => runEdgeCycle({ config: (current = next), logger, shutdown, retryRefused: asked }),
    });
  } finally {
    await endpoint?.close();
  }
}
