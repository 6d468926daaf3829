// The daemon's HTTP endpoint (--listen): the probe's server, handed the agent's answers and
// the agent's status page, each read from the state directory at request time.
import type { Config } from '../config/config.js';
import type { TlsFiles } from '../config/tls-files.js';
import type { Clock } from '../lib/clock.js';
import type { ListenAddress } from '../lib/listen-address.js';
import type { Logger } from '../lib/log.js';
import type { PageSource } from '../probe/page-handler.js';
import type { PageContext } from '../probe/page-frame.js';
import { startEndpoint, type Endpoint } from '../probe/server.js';
import { agentAnswer } from './endpoint-answers.js';

export interface AgentEndpointOptions {
  listen: ListenAddress;
  /** The configuration in force: the daemon re-reads it before each cycle. */
  config: () => Config;
  /** The daemon's "update now" (the status page's button): asks for a cycle. */
  updateNow?: () => void;
  logger: Logger;
  /** Times the button (at most once every 30 s); the system's by default. */
  clock?: Clock;
  /** --listen-cert and --listen-key: served over TLS. */
  tls?: TlsFiles;
}

export function startAgentEndpoint(options: AgentEndpointOptions): Promise<Endpoint> {
  const { listen, config, updateNow, logger, clock, tls } = options;
  const page = agentPage(config, updateNow);
  return startEndpoint({ listen, answer: (path) => agentAnswer(path, config()), page, logger, clock, tls });
}

/** The daemon's page: the agent's view; its code is loaded with the page's first visit. */
function agentPage(config: () => Config, updateNow?: () => void): PageSource {
  return {
    token: () => config().listenToken,
    render: async (url: URL, context: PageContext) => {
      const [{ agentPageView }, { renderAgentPage }] = await Promise.all([
        import('./page-view.js'),
        import('./status-page.js'),
      ]);
      const page = Number(url.searchParams.get('page') ?? 1);
      return renderAgentPage(agentPageView(config(), Number.isInteger(page) ? page : 1), context);
    },
    updateNow,
    actionName: 'update now',
  };
}
