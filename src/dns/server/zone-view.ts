// One served zone as the sandbox's name server and the gateway both serve it: its records
// indexed for answers (authority.ts), the SOA they synthesise (the same numbers for both), its
// serial, and change detection. A feeder shows it the records at some owners; owners whose
// content did not change are left alone, the others are replaced in the index in place (cost:
// what changed, not the zone), and only then does the serial move. The zone's content digest
// (the XOR of its owners' digests, kept only when asked: the gateway keeps it beside its
// serial across restarts) follows the same owners.
import { createHash } from 'node:crypto';
import { answerFromZone, buildZoneIndexOfOwners, replaceOwners, type ZoneAnswer, type ZoneIndex } from './authority.js';
import { nameKey } from '../wire/names.js';
import { atOrBelow } from '../../lib/names.js';
import { RCODE, type DnsRecord } from '../wire/types.js';

/** The negative-answer TTL (SOA minimum): short, so tests and ACME checks see a change soon. */
const NEGATIVE_TTL = 60;
/** The SOA's own TTL, and that of the NS records the servers add at an apex. */
export const SOA_TTL = 300;

export type SoaRecord = DnsRecord & { type: 'SOA' };

/** The SOA a served zone is answered with: `primary` as its primary name server. */
function soaOf(apex: string, primary: string, serial: number): SoaRecord {
  return {
    name: apex,
    type: 'SOA',
    ttl: SOA_TTL,
    value: {
      mname: primary,
      rname: `hostmaster.${apex}`,
      serial,
      refresh: 3600,
      retry: 600,
      expire: 604800,
      minimum: NEGATIVE_TTL,
    },
  };
}

/** Bytes of an owner's digest and of the zone's (their XOR). */
const DIGEST_BYTES = 16;

/** An owner's records as one text, order aside: two owners hold the same when their texts are equal. */
function ownerText(records: readonly DnsRecord[]): string {
  return records
    .filter((r) => r.type !== 'SOA')
    .map((r) => `${r.type} ${r.ttl} ${JSON.stringify(r.value)}`)
    .sort()
    .join('\n');
}

/** One owner's content as a digest; the zone's is the XOR of its owners' (order aside, updated owner by owner). */
function ownerDigest(owner: string, text: string): Buffer {
  return createHash('sha256').update(owner).update('\n').update(text).digest().subarray(0, DIGEST_BYTES);
}

function xorInto(into: Buffer, digest: Buffer): void {
  for (let i = 0; i < into.length; i++) into[i]! ^= digest[i]!;
}

export interface ZoneViewOptions {
  /** The SOA's primary name; none: the first NS record at the apex. */
  primary?: string;
  /** Keep the content digest (the XOR of the owners' digests; costs a hash per owner shown). */
  digest?: boolean;
  /** The serial after `current` (undefined: the first showing), given the new content's digest ('' when not kept). */
  nextSerial: (current: number | undefined, digest: string) => number;
}

export class ZoneView {
  /** The apex as a key. */
  readonly apex: string;
  private served: ZoneIndex | undefined;
  private readonly digestBytes: Buffer | undefined;

  constructor(
    apex: string,
    private readonly options: ZoneViewOptions,
  ) {
    this.apex = nameKey(apex);
    this.digestBytes = options.digest ? Buffer.alloc(DIGEST_BYTES) : undefined;
  }

  /** The index answers are read from (none before the first showing). */
  get index(): ZoneIndex | undefined {
    return this.served;
  }

  /** The serial the zone is served with (0 before the first showing). */
  get serial(): number {
    return this.served?.soa.value.serial ?? 0;
  }

  /** The content digest as hex ('' when not kept). */
  get digest(): string {
    return this.digestBytes?.toString('hex') ?? '';
  }

  /**
   * Shows the whole zone the first time (`owners`: every owner's records), afterwards the
   * records now at each owner in `owners` ([]: it is gone); owners not in it keep theirs.
   * Returns the new SOA when anything changed (the first showing always does), else undefined.
   * The index keeps the lists given (owner keys, as nameKey makes them), not copies.
   */
  show(owners: Map<string, DnsRecord[]>): SoaRecord | undefined {
    const index = this.served;
    const changed = index ? new Map<string, DnsRecord[]>() : owners;
    // The first showing compares nothing: its owners' texts are needed only for the digest.
    if (index || this.digestBytes) {
      for (const [owner, records] of owners) {
        const before = index ? index.nodes.get(owner) : undefined;
        const text = ownerText(records);
        const was = before ? ownerText(before) : '';
        if (index && was === text) continue;
        if (this.digestBytes) {
          if (was) xorInto(this.digestBytes, ownerDigest(owner, was));
          if (text) xorInto(this.digestBytes, ownerDigest(owner, text));
        }
        if (index) changed.set(owner, records);
      }
    }
    if (index && !changed.size) return undefined;
    const serial = this.options.nextSerial(index?.soa.value.serial, this.digest);
    const apexRecords = changed.get(this.apex) ?? index?.nodes.get(this.apex) ?? [];
    const primary =
      this.options.primary ??
      (apexRecords.find((r) => r.type === 'NS')?.value as string | undefined) ??
      `ns1.${this.apex}`;
    const soa = soaOf(this.apex, primary, serial);
    if (index) replaceOwners(index, changed, soa);
    else this.served = buildZoneIndexOfOwners(this.apex, soa, owners);
    return soa;
  }
}

/**
 * The zones one server answers for, each found by the longest apex a name lies at or below,
 * and a version that grows with every change of any of them (answers cached before it moved
 * are stale: answer-cache.ts).
 */
export class ServedZones {
  private readonly views = new Map<string, ZoneView>();
  private changes = 0;

  get version(): number {
    return this.changes;
  }

  /** Shows `owners` to `view` (ZoneView.show); a change moves the version. */
  show(view: ZoneView, owners: Map<string, DnsRecord[]>): SoaRecord | undefined {
    const soa = view.show(owners);
    if (soa) this.changes++;
    return soa;
  }

  get names(): string[] {
    return [...this.views.keys()];
  }

  get(apex: string): ZoneView | undefined {
    return this.views.get(apex);
  }

  set(view: ZoneView): void {
    this.views.set(view.apex, view);
    this.changes++;
  }

  delete(apex: string): void {
    if (this.views.delete(apex)) this.changes++;
  }

  /** The served zone holding a name key: the longest apex it lies at or below. */
  zoneOf(key: string): ZoneView | undefined {
    let best: ZoneView | undefined;
    for (const view of this.views.values())
      if (atOrBelow(key, view.apex) && (!best || view.apex.length > best.apex.length)) best = view;
    return best;
  }

  /**
   * The answer to one question of class IN: REFUSED outside the zones, SERVFAIL in one not shown yet (not answered as
   * if it were empty).
   */
  answer(qname: string, qtype: number): ZoneAnswer {
    const view = this.zoneOf(nameKey(qname));
    const index = view?.index;
    if (!index)
      return {
        rcode: view ? RCODE.SERVFAIL : RCODE.REFUSED,
        authoritative: false,
        answers: [],
        authority: [],
        additional: [],
      };
    return answerFromZone(index, qname, qtype, NEGATIVE_TTL);
  }
}
