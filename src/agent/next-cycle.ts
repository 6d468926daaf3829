// When the daemon's next cycle is due, as the daemon planned it (the interval, or a shorter
// retry after a failure): the status page shows this, not the last cycle + --interval, which
// was wrong for as long as the daemon was retrying.
let plannedAt: number | undefined;

export function planNextCycle(at: number | undefined): void {
  plannedAt = at;
}

export function plannedNextCycle(): number | undefined {
  return plannedAt;
}
