// What the daemon's endpoint answers: /healthz by the rule of `ddedge health`, /metrics with
// the series of --metrics-file, /status with the document of `ddedge status --json`. Each is
// read from the state file at request time, as those commands read it; nothing from the
// configuration is shown but host names, so no secret can be in an answer.
import type { Config } from '../config/config.js';
import { redact } from '../lib/redact.js';
import type { Answer } from '../probe/server.js';
import { readState } from '../state/state.js';
import { assessHealth } from './health.js';
import { renderMetrics } from './metrics.js';
import { statusDocument } from './status-view.js';
import { containerOrigins } from './container-rows.js';

const TEXT = 'text/plain; charset=utf-8';
/** The Prometheus text exposition format, version 0.0.4. */
const PROMETHEUS = 'text/plain; version=0.0.4; charset=utf-8';
export const PATHS = ['/healthz', '/metrics', '/status'] as const;

export function agentAnswer(path: string, config: Config): Answer {
  switch (path) {
    case '/healthz': {
      const health = assessHealth(readState(config.stateDir).state, config.healthLimitMs);
      return { status: health.healthy ? 200 : 503, contentType: TEXT, body: `${health.summary}\n` };
    }
    case '/metrics':
      return {
        status: 200,
        contentType: PROMETHEUS,
        body: redact(renderMetrics(readState(config.stateDir).state, config)),
      };
    case '/status': {
      const { state, damage } = readState(config.stateDir);
      if (damage)
        return { status: 500, contentType: 'application/json', body: JSON.stringify({ error: redact(damage) }) + '\n' };
      return {
        status: 200,
        contentType: 'application/json',
        body:
          redact(
            JSON.stringify(
              statusDocument(
                config.stateDir,
                state,
                config.containers ? containerOrigins(config.stateDir).names : undefined,
              ),
            ),
          ) + '\n',
      };
    }
    default:
      return { status: 404, contentType: TEXT, body: `not found; ddedge serves ${PATHS.join(', ')}\n` };
  }
}
