// Interleaved measurement: every round runs every scenario once, so machine drift hits all
// rows alike; medians per row; ratios to the first row (`node -e 0`) of the same run.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const preload = join(import.meta.dirname, 'rss-preload.cjs');
// GNU time reads the peak RSS of any program (ddclient is Perl); the preload is the fallback for Node rows.
const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** One run: wall ms from spawn to exit, or (memory) the peak RSS in KiB. */
export function runOnce(scenario, env, memory = false) {
  scenario.setup?.();
  const program = scenario.command ?? process.execPath;
  let file = program;
  let args = scenario.args;
  if (memory && gnuTime) [file, args] = [gnuTime, ['-f', 'DDEDGE_BENCH_MAXRSS_KB=%M', program, ...scenario.args]];
  else if (memory && !scenario.command) args = ['--require', preload, ...scenario.args];
  else if (memory) return Promise.resolve({ ms: NaN, rssKb: NaN });
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) return reject(new Error(`${scenario.name} exited ${code}: ${stderr}`));
      resolve({ ms, rssKb: Number(/DDEDGE_BENCH_MAXRSS_KB=(\d+)/.exec(stderr)?.[1] ?? NaN) });
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
  const rows = new Map(scenarios.map((s) => [s, { times: [], rss: [], requests: undefined, varied: false }]));
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
    for (const s of scenarios) rows.get(s).rss.push((await runOnce(s, env, true)).rssKb);
  }
  return [...rows].map(([s, r]) => ({ name: s.name, ms: median(r.times), rssKb: median(r.rss), requests: r.requests, varied: r.varied }));
}

/** The markdown table: wall time and peak RSS with ratios to the first row, and the requests made. */
export function table(results, { floor } = {}) {
  const [base] = results;
  const floorRow = floor && results.find((r) => r.name === floor);
  const lines = [`| scenario | requests | wall ms | × node -e 0 |${floorRow ? ' × floor |' : ''} peak RSS MiB | × node -e 0 |`, `|---|---|---:|---:|${floorRow ? '---:|' : ''}---:|---:|`];
  for (const r of results) {
    const requests = Object.entries(r.requests).filter(([, n]) => n).map(([k, n]) => `${n} ${k}`).join(', ') || '0';
    const rss = Number.isNaN(r.rssKb) ? '– | – |' : `${(r.rssKb / 1024).toFixed(1)} | ${(r.rssKb / base.rssKb).toFixed(2)} |`;
    const vsFloor = floorRow ? ` ${(r.ms / floorRow.ms).toFixed(2)} |` : '';
    lines.push(`| ${r.name} | ${requests}${r.varied ? ' (varied!)' : ''} | ${r.ms.toFixed(1)} | ${(r.ms / base.ms).toFixed(2)} |${vsFloor} ${rss}`);
  }
  return lines.join('\n');
}
