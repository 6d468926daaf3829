// Loaded with --require in the memory runs only: reports the process's peak RSS and CPU time
// (user + system, µs; steadier than wall time on a loaded machine) at exit.
process.on('exit', () => {
  const cpu = process.cpuUsage();
  process.stderr.write(
    `\nDDEDGE_BENCH_MAXRSS_KB=${process.resourceUsage().maxRSS}\nDDEDGE_BENCH_CPU_US=${cpu.user + cpu.system}\n`,
  );
});
