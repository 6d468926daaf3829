// Prometheus text-format metrics for node_exporter's textfile collector, replaced atomically
// so the collector never reads half a file.
import { writeFileAtomic } from '../atomic-write.js';
import type { CycleReport } from './cycle.js';

const seconds = (iso?: string) => (iso ? Math.round(Date.parse(iso) / 1000) : 0);
const label = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

export function renderMetrics(report: CycleReport): string {
  const { state } = report;
  const lines: string[] = [];
  const metric = (name: string, type: 'gauge' | 'counter', help: string, samples: [string, number][]) => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, ...samples.map(([labels, value]) => `${name}${labels} ${value}`));
  };
  metric('ddedge_last_success_timestamp_seconds', 'gauge', 'End of the last cycle in which every record was current.', [['', seconds(state.lastSuccessAt)]]);
  metric('ddedge_last_change_timestamp_seconds', 'gauge', 'When a record was last changed at the provider.', [['', seconds(state.lastChangeAt)]]);
  metric('ddedge_last_cycle_timestamp_seconds', 'gauge', 'End of the last cycle.', [['', seconds(state.lastCycleAt)]]);
  metric('ddedge_last_cycle_exit_code', 'gauge', "The last cycle's exit code (0 = every record current).", [['', report.exitCode]]);
  const kinds = ['auth', 'transient', 'refused', 'address_unknown', 'config', 'internal'];
  metric('ddedge_failures_total', 'counter', 'Records that failed to update, by kind.', kinds.map((k) => [`{kind="${k}"}`, state.failures?.[k] ?? 0]));
  const records = Object.values(state.records).filter((r) => r.address);
  metric('ddedge_address_info', 'gauge', 'The address each record holds as far as ddedge knows (value always 1).', records.map((r) => [`{host="${label(r.host)}",type="${r.type}",address="${label(r.address!)}"}`, 1]));
  metric('ddedge_record_sent_timestamp_seconds', 'gauge', 'When each record was last sent.', records.map((r) => [`{host="${label(r.host)}",type="${r.type}"}`, seconds(r.sentAt)]));
  return lines.join('\n') + '\n';
}

export function writeMetrics(path: string, report: CycleReport): void {
  // Readable by the node_exporter user.
  writeFileAtomic(path, renderMetrics(report), 0o644);
}
