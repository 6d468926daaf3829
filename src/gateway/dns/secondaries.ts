// What the gateway knows of its secondaries, for the status page: the last NOTIFY sent to each
// --notify HOST[:PORT] for each zone (serial, when, whether it was acknowledged), and the last
// zone transfer each client address made (AXFR or IXFR, when). Kept in memory since start and
// bounded: transfer clients are whoever holds a transfer key, never an unbounded crowd.
export interface SecondaryRow {
  /** "192.0.2.53:53" for a --notify target, the client's address for a transfer. */
  secondary: string;
  zone: string;
  notify?: { at: string; serial: number; acknowledged: boolean };
  transfer?: { at: string; type: 'AXFR' | 'IXFR' };
}

const ROWS = 50;

export class SecondaryLog {
  private readonly rows = new Map<string, SecondaryRow>();

  constructor(private readonly now: () => number = Date.now) {}

  notified(target: string, zone: string, serial: number, acknowledged: boolean): void {
    this.row(target, zone).notify = { at: new Date(this.now()).toISOString(), serial, acknowledged };
  }

  transferred(client: string, zone: string, type: 'AXFR' | 'IXFR'): void {
    // A --notify target's transfers show on its own line when it transfers from the address it was notified at.
    const target = [...this.rows.values()].find(
      (r) => r.zone === zone && r.notify && r.secondary.replace(/:\d+$/, '').replace(/^\[|\]$/g, '') === client,
    );
    (target ?? this.row(client, zone)).transfer = { at: new Date(this.now()).toISOString(), type };
  }

  /** Newest activity last. */
  get recent(): SecondaryRow[] {
    return [...this.rows.values()];
  }

  private row(secondary: string, zone: string): SecondaryRow {
    const key = `${secondary} ${zone}`;
    let row = this.rows.get(key);
    if (row) this.rows.delete(key);
    else row = { secondary, zone };
    this.rows.set(key, row);
    while (this.rows.size > ROWS) this.rows.delete(this.rows.keys().next().value!);
    return row;
  }
}
