// Loaded with --require in the memory runs only: reports the process's peak RSS at exit.
process.on('exit', () => {
  process.stderr.write(`\nDDEDGE_BENCH_MAXRSS_KB=${process.resourceUsage().maxRSS}\n`);
});
