// Interleaved measurement: every round runs every scenario once, so machine drift hits all
// rows alike; medians per row; ratios to the first row (`node -e 0`) of the same run.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const preload = join(import.meta.dirname, 'rss-preload.cjs');
// GNU time reads the peak RSS of any program (ddclient is Perl); the preload is the fallback for Node rows.
const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** One run: wall ms from spawn to exit, or (memory run) the peak RSS in KiB and the CPU ms. A scenario's own `env` replaces the run's. */
export function runOnce(scenario, env, memory = false) {
  scenario.setup?.();
  // `node`: a Node row run by another Node binary (bench/nodes.mjs); `command`: not Node at all.
  const program = scenario.command ?? scenario.node ?? process.execPath;
  let file = program;
  let args = scenario.args;
  // Node rows: the preload reads CPU time to the microsecond; GNU time (10 ms steps) the others.
  if (memory && !scenario.command) args = ['--require', preload, ...scenario.args];
  if (memory && gnuTime)
    [file, args] = [gnuTime, ['-f', 'DDEDGE_BENCH_MAXRSS_KB=%M\nDDEDGE_BENCH_CPU_S=%U+%S', file, ...args]];
  else if (memory && scenario.command) return Promise.resolve({ ms: NaN, rssKb: NaN, cpuMs: NaN });
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: scenario.env ?? env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) return reject(new Error(`${scenario.name} exited ${code}: ${stderr}`));
      const micros = /DDEDGE_BENCH_CPU_US=(\d+)/.exec(stderr)?.[1];
      const seconds = /DDEDGE_BENCH_CPU_S=([\d.]+)\+([\d.]+)/.exec(stderr);
      const cpuMs = micros ? Number(micros) / 1000 : seconds ? (Number(seconds[1]) + Number(seconds[2])) * 1000 : NaN;
      // GNU time reports last; with the preload too, its figure includes the preload's own few KiB.
      const rss = [...stderr.matchAll(/DDEDGE_BENCH_MAXRSS_KB=(\d+)/g)].at(-1)?.[1];
      resolve({ ms, rssKb: Number(rss ?? NaN), cpuMs });
    });
  });
}

export const median = (values) => {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (!sorted.length) return NaN;
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * Runs `rounds` interleaved rounds of timing and of memory. `count(settle)` reads the servers'
 * request counters, `{ echo, provider }` (after the provider's log settles when asked); the requests of each scenario are taken in a first,
 * untimed round that also warms the file cache, and checked to stay the same in every round.
 */
export async function measure(scenarios, env, rounds, count) {
  const rows = new Map(scenarios.map((s) => [s, { times: [], rss: [], cpu: [], requests: undefined, varied: false }]));
  for (const s of scenarios) {
    const before = await count();
    await runOnce(s, env);
    const after = await count();
    rows.get(s).requests = Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - before[k]]));
  }
  for (let round = 0; round < rounds; round++) {
    for (const s of scenarios) {
      // The in-process echo counters are exact at once; the provider's arrive later.
      const before = await count(false);
      rows.get(s).times.push((await runOnce(s, env)).ms);
      const after = await count(false);
      if (after.echo - before.echo !== rows.get(s).requests.echo) rows.get(s).varied = true;
    }
    for (const s of scenarios) {
      const { rssKb, cpuMs } = await runOnce(s, env, true);
      rows.get(s).rss.push(rssKb);
      rows.get(s).cpu.push(cpuMs);
    }
  }
  return [...rows].map(([s, r]) => ({
    name: s.name,
    ms: median(r.times),
    rssKb: median(r.rss),
    cpuMs: median(r.cpu),
    requests: r.requests,
    varied: r.varied,
  }));
}

/** The markdown table: wall time and peak RSS with ratios to the first row, and the requests made. */
export function table(results, { floor } = {}) {
  const [base] = results;
  const floorRow = floor && results.find((r) => r.name === floor);
  const lines = [
    `| scenario | requests | wall ms | × node -e 0 |${floorRow ? ' × floor |' : ''} CPU ms |${floorRow ? ' × floor |' : ''} peak RSS MiB | × node -e 0 |`,
    `|---|---|---:|---:|${floorRow ? '---:|' : ''}---:|${floorRow ? '---:|' : ''}---:|---:|`,
  ];
  for (const r of results) {
    const requests =
      Object.entries(r.requests)
        .filter(([, n]) => n)
        .map(([k, n]) => `${n} ${k}`)
        .join(', ') || '0';
    const rss = Number.isNaN(r.rssKb)
      ? '– | – |'
      : `${(r.rssKb / 1024).toFixed(1)} | ${(r.rssKb / base.rssKb).toFixed(2)} |`;
    const vsFloor = floorRow ? ` ${(r.ms / floorRow.ms).toFixed(2)} |` : '';
    const cpu = Number.isNaN(r.cpuMs) ? ' – |' : ` ${r.cpuMs.toFixed(1)} |`;
    const cpuVsFloor = floorRow ? (Number.isNaN(r.cpuMs) ? ' – |' : ` ${(r.cpuMs / floorRow.cpuMs).toFixed(2)} |`) : '';
    lines.push(
      `| ${r.name} | ${requests}${r.varied ? ' (varied!)' : ''} | ${r.ms.toFixed(1)} | ${(r.ms / base.ms).toFixed(2)} |${vsFloor}${cpu}${cpuVsFloor} ${rss}`,
    );
  }
  return lines.join('\n');
}
