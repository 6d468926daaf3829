// Loaded with --require in the memory runs only: reports the process's peak RSS and CPU time
// (user + system, µs; steadier than wall time on a loaded machine) at exit. Written with
// fs.writeSync, which Node has loaded before any program: process.stderr would load Node's
// streams and its tty or net module for the report alone, 2 MiB of RSS and some CPU time in
// `node -e 0` (the rows' yardstick) and less in a program that has loaded them already, so every
// ratio to `node -e 0` read low.
process.on('exit', () => {
  const cpu = process.cpuUsage();
  require('node:fs').writeSync(
    2,
    `\nDDEDGE_BENCH_MAXRSS_KB=${process.resourceUsage().maxRSS}\nDDEDGE_BENCH_CPU_US=${cpu.user + cpu.system}\n`,
  );
});
