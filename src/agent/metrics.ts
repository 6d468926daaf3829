// Prometheus text-format metrics for node_exporter's textfile collector, replaced atomically
// so the collector never reads half a file.
import { writeFileAtomic } from '../lib/atomic-write.js';
import { notReplaceable } from '../lib/replaceable-file.js';
import type { Config } from '../config/config.js';
import { plannedRecords } from '../lan/planned-records.js';
import { recordKey, type State } from '../state/state.js';

const seconds = (iso?: string) => (iso ? Math.round(Date.parse(iso) / 1000) : 0);
const label = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/**
 * The metrics of the records the configuration keeps (a record dropped from it, such as the
 * AAAA after --ipv6 is turned off, stays in the cache but is no longer a series). The same
 * text for --metrics-file and the daemon's /metrics.
 */
export function renderMetrics(
  state: State,
  config: Config,
  exitCode: number | undefined = state.lastCycleExitCode,
): string {
  const lines: string[] = [];
  const metric = (name: string, type: 'gauge' | 'counter', help: string, samples: [string, number][]) => {
    lines.push(
      `# HELP ${name} ${help}`,
      `# TYPE ${name} ${type}`,
      ...samples.map(([labels, value]) => `${name}${labels} ${value}`),
    );
  };
  metric('ddedge_last_success_timestamp_seconds', 'gauge', 'End of the last cycle in which every record was current.', [
    ['', seconds(state.lastSuccessAt)],
  ]);
  metric('ddedge_last_change_timestamp_seconds', 'gauge', 'When a record was last changed at the provider.', [
    ['', seconds(state.lastChangeAt)],
  ]);
  metric('ddedge_last_cycle_timestamp_seconds', 'gauge', 'End of the last cycle.', [['', seconds(state.lastCycleAt)]]);
  metric(
    'ddedge_last_cycle_exit_code',
    'gauge',
    "The last cycle's exit code (0 = every record current).",
    exitCode === undefined ? [] : [['', exitCode]],
  );
  const kinds = ['auth', 'transient', 'refused', 'address_unknown', 'config', 'internal'];
  metric(
    'ddedge_failures_total',
    'counter',
    'Records that failed to update, by kind.',
    kinds.map((k) => [`{kind="${k}"}`, state.failures?.[k] ?? 0]),
  );
  const kept = new Set(plannedRecords(config).map((r) => recordKey(r.host, r.type)));
  const records = Object.values(state.records).filter((r) => r.address && kept.has(recordKey(r.host, r.type)));
  metric(
    'ddedge_address_info',
    'gauge',
    'The address each record holds as far as ddedge knows (value always 1).',
    records.map((r) => [`{host="${label(r.host)}",type="${r.type}",address="${label(r.address!)}"}`, 1]),
  );
  metric(
    'ddedge_record_sent_timestamp_seconds',
    'gauge',
    'When each record was last sent.',
    records.map((r) => [`{host="${label(r.host)}",type="${r.type}"}`, seconds(r.sentAt)]),
  );
  const lan = records.filter((r) => r.type === 'AAAA' && r.prefix && config.lan.identifiers[r.host]);
  metric(
    'ddedge_lan_host_info',
    'gauge',
    'Hosts behind the router: the IPv6 prefix and interface identifier their AAAA was built from (value always 1).',
    lan.map((r) => [
      `{host="${label(r.host)}",identifier="${label(config.lan.identifiers[r.host]!)}",prefix="${label(r.prefix!)}",` +
        `address="${label(r.address!)}"}`,
      1,
    ]),
  );
  return lines.join('\n') + '\n';
}

export function writeMetrics(path: string, state: State, config: Config, exitCode: number): void {
  // The rename would put a file in place of what the path leads to when that is no file (/dev/null, a FIFO).
  const kind = notReplaceable(path, true);
  if (kind !== undefined) throw new Error(`${path} is ${kind}, not a file; it is left as it is`);
  // Readable by the node_exporter user.
  writeFileAtomic(path, renderMetrics(state, config, exitCode), 0o644);
}
