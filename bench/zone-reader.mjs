// node bench/zone-reader.mjs [records…] (BENCH_RUNS rounds, 5 by default): the zone-file reader beside BIND's named-checkzone,
// on the same master files (1k to 100k records of every type ddedge manages).
// - node: a process that reads the file as `ddedge zone plan` does (capped read, then
//   readZoneText, the reader the command uses), bundled from src/ with esbuild;
// - named-checkzone -i none: BIND loading the same file with its integrity checks off;
// - node -e 0: the floor of any Node process.
// CPU (user + system) and peak RSS from GNU time, medians of interleaved rounds; the node row
// also reports the reader's own time per record, measured inside the process.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleSource } from './bundle-source.mjs';

const ZONE = 'bench.example';
for (const [tool, args, from] of [
  ['named-checkzone', ['-v'], 'bind9-utils'],
  ['/usr/bin/time', ['true'], 'time'],
]) {
  if (spawnSync(tool, args).error) {
    console.log(`${tool} is not installed (Debian package ${from}): nothing to measure the reader against`);
    process.exit(0);
  }
}
const ROUNDS = Number(process.env.BENCH_RUNS ?? 5);
const sizes = process.argv.slice(2).map(Number).filter(Boolean);
if (!sizes.length) sizes.push(1_000, 10_000, 100_000);
const work = mkdtempSync(join(tmpdir(), 'ddedge-bench-reader-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

const reader = join(work, 'reader.mjs');
// ZONE_READER_ROOT measures another checkout's reader (a before and after) with this bench.
await bundleSource(
  reader,
  `
      import { readCappedText } from './src/config/capped-file.ts';
      import { readZoneText } from './src/zone/apply/zone-files.ts';
      const [file, zone] = process.argv.slice(2);
      const text = readCappedText(file, 16 * 1024 * 1024);
      const started = process.hrtime.bigint();
      const wanted = readZoneText(text, { zone, file, skipUnsupported: true });
      const us = Number(process.hrtime.bigint() - started) / 1000;
      process.stderr.write('READER_US=' + us + '\\nRECORDS=' + wanted.records.length + '\\n');
    `,
  { root: process.env.ZONE_READER_ROOT },
);

/** A zone as a user's file holds it: mostly A and AAAA, then CNAME, MX, TXT, SRV, CAA. */
function zoneText(count) {
  const lines = [
    `$ORIGIN ${ZONE}.`,
    '$TTL 3600',
    `@ IN SOA ns1.example.net. hostmaster.${ZONE}. 1 3600 600 86400 300`,
    '@ IN NS ns1.example.net.',
    '@ IN NS ns2.example.net.',
  ];
  for (let i = 0; i < count; i++) {
    const octets = `${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    switch (i % 10) {
      case 0:
      case 1:
      case 2:
      case 3:
        lines.push(`host${i} IN A 10.${octets}`);
        break;
      case 4:
        lines.push(`host${i} 300 IN AAAA 2001:db8::${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}`);
        break;
      case 5:
        lines.push(`alias${i} IN CNAME host${i - 5}.${ZONE}.`);
        break;
      case 6:
        lines.push(`mail${i} IN MX 10 mx${i}.example.net.`);
        break;
      case 7:
        lines.push(`txt${i} IN TXT "v=spf1 ip4:10.${octets} -all" "record ${i}"`);
        break;
      case 8:
        lines.push(`_sip._tcp.srv${i} IN SRV 10 60 5060 sip${i}.example.net.`);
        break;
      case 9:
        lines.push(`caa${i} IN CAA 0 issue "ca${i}.example.net"`);
        break;
    }
  }
  return lines.join('\n') + '\n';
}

function timed(file, args) {
  const run = spawnSync('/usr/bin/time', ['-f', 'MAXRSS_KB=%M CPU_S=%U+%S', file, ...args], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${file} ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  const cpu = /CPU_S=([\d.]+)\+([\d.]+)/.exec(run.stderr);
  return {
    cpuMs: (Number(cpu[1]) + Number(cpu[2])) * 1000,
    rssKb: Number(/MAXRSS_KB=(\d+)/.exec(run.stderr)[1]),
    readerUs: Number(/READER_US=([\d.]+)/.exec(run.stderr)?.[1] ?? NaN),
    records: Number(/RECORDS=(\d+)/.exec(run.stderr)?.[1] ?? NaN),
  };
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

console.log(
  '| records | program | CPU ms | peak RSS MiB | CPU × named-checkzone | RSS × named-checkzone | reader µs/record |',
);
console.log('|---|---|---|---|---|---|---|');
for (const count of sizes) {
  const file = join(work, `zone-${count}.zone`);
  writeFileSync(file, zoneText(count));
  const rows = {
    'node -e 0': () => timed(process.execPath, ['-e', '0']),
    'named-checkzone -i none': () => timed('named-checkzone', ['-q', '-i', 'none', ZONE, file]),
    'ddedge reader': () => timed(process.execPath, [reader, file, ZONE]),
  };
  const runs = Object.fromEntries(Object.keys(rows).map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++) for (const [name, run] of Object.entries(rows)) runs[name].push(run());
  const stat = (name, key) => median(runs[name].map((r) => r[key]));
  const bind = { cpu: stat('named-checkzone -i none', 'cpuMs'), rss: stat('named-checkzone -i none', 'rssKb') };
  for (const name of Object.keys(rows)) {
    const cpu = stat(name, 'cpuMs');
    const rss = stat(name, 'rssKb');
    const perRecord = name === 'ddedge reader' ? (stat(name, 'readerUs') / count).toFixed(2) : '';
    if (name === 'ddedge reader' && runs[name][0].records !== count)
      throw new Error(`the reader read ${runs[name][0].records} records of ${count}`);
    console.log(
      `| ${count.toLocaleString('en')} | ${name} | ${cpu.toFixed(0)} | ${(rss / 1024).toFixed(1)} | ${(cpu / bind.cpu).toFixed(2)} | ${(rss / bind.rss).toFixed(2)} | ${perRecord} |`,
    );
  }
}
