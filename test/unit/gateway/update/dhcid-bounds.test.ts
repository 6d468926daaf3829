// The DHCID store's bounds against a key granted DHCID that tries to fill it (an attack found
// this): at most MAX_DHCID_PER_NAME records at one name, at most MAX_RECORD_BYTES of records,
// so the file the gateway writes is always one it reads again (a restart), and updates of the
// attacker's shape are refused (REFUSED, with an EDE) before the file passes that bound.
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EDE } from '../../../../src/dns/wire/edns.js';
import { DhcidBatch } from '../../../../src/gateway/dhcid/batch.js';
import { evaluateWithDhcid, TYPE_DHCID } from '../../../../src/gateway/update/dhcid-rules.js';
import {
  DhcidStore,
  dhcidStorePath,
  MAX_DHCID_PER_NAME,
  MAX_FILE_BYTES,
  MAX_RECORD_BYTES,
  recordBytes,
  type DhcidRecord,
} from '../../../../src/gateway/dhcid/store.js';
import { CLASS, type UpdateMessage, type UpdateRecord } from '../../../../src/gateway/update/message.js';
import type { Allowed } from '../../../../src/gateway/update/rules.js';
import { tempDir } from '../../../helpers/cli.js';

const ZONE = 'example.com';
/** As `grant "dhcp" subdomain dhcp.example.com A AAAA DHCID;` allows. */
const dhcpKey: Allowed = (owner, type) => owner.endsWith('.dhcp.example.com') && ['A', 'AAAA', 'DHCID'].includes(type);
/** The largest data DHCID takes (255 bytes), different for each `i`. */
const bigData = (i: number) => `0002${i.toString(16).padStart(8, '0')}${'ab'.repeat(255 - 6)}`;
/** An owner of 252 wire bytes, every byte one a name writes as \DDD (4 characters; 5 in JSON). */
const longOwner = (i: number) =>
  `${String(i).padStart(6, '0')}${'\\001'.repeat(35)}.${'\\001'.repeat(63)}.${'\\001'.repeat(63)}.${'\\001'.repeat(63)}.dhcp.example.com`;
const add = (name: string, data: string): UpdateRecord => ({
  name,
  type: TYPE_DHCID,
  class: CLASS.IN,
  ttl: 300,
  data: { name, type: `TYPE${TYPE_DHCID}`, ttl: 300, value: data },
});
const message = (updates: UpdateRecord[]): UpdateMessage => ({
  id: 1,
  zone: { name: ZONE, type: 6, class: 1 },
  prerequisites: [],
  updates,
  edns: false,
});

/** One update through the steps update/batch.ts takes: judged against the kept records, accepted, saved. */
function apply(store: DhcidStore, updates: UpdateRecord[]) {
  const batch = new DhcidBatch(store, ZONE);
  const evaluation = evaluateWithDhcid(message(updates), [], ZONE, dhcpKey, batch.held, batch.spare);
  if (!evaluation.ok) return evaluation;
  batch.accept(evaluation.dhcid);
  expect(batch.save()).toBeUndefined();
  return evaluation;
}

describe('the DHCID bounds', () => {
  it(`keeps at most ${MAX_DHCID_PER_NAME} records at one name: the attacker's 240 at one owner are refused, and nothing is kept`, () => {
    const store = DhcidStore.open(tempDir());
    const owner = longOwner(1);
    const refused = apply(
      store,
      Array.from({ length: 240 }, (_, i) => add(owner, bigData(i))),
    );
    expect(refused).toMatchObject({
      ok: false,
      rcode: 5,
      ede: EDE.PROHIBITED,
      why: expect.stringMatching(new RegExp(`at most ${MAX_DHCID_PER_NAME} at one name`)),
    });
    expect(store.of(ZONE).size).toBe(0);
    expect(
      apply(
        store,
        Array.from({ length: MAX_DHCID_PER_NAME }, (_, i) => add(owner, bigData(i))),
      ).ok,
    ).toBe(true);
    expect(apply(store, [add(owner, bigData(99))])).toMatchObject({ ok: false, rcode: 5 });
    // Replacing one of them (a new TTL, the same data) is no growth.
    expect(apply(store, [add(owner, bigData(0))]).ok).toBe(true);
  });

  it('lets a name already holding more than the bound (a file written before it) shrink', () => {
    const store = DhcidStore.open(tempDir());
    const owner = 'old.dhcp.example.com';
    store.replace(
      ZONE,
      new Map([
        [owner, Array.from({ length: 20 }, (_, i): DhcidRecord => ({ name: owner, ttl: 60, data: bigData(i) }))],
      ]),
    );
    const remove: UpdateRecord = {
      name: owner,
      type: TYPE_DHCID,
      class: CLASS.NONE,
      ttl: 0,
      data: { name: owner, type: `TYPE${TYPE_DHCID}`, ttl: 0, value: bigData(3) },
    };
    expect(apply(store, [remove]).ok).toBe(true);
    expect(store.of(ZONE).get(owner)).toHaveLength(19);
  });

  it("refuses, with an EDE, the updates of the attacker's shape once the bytes are spent; the file never passes what a restart reads, and reopens", {
    timeout: 120_000,
  }, () => {
    const stateDir = tempDir();
    const store = DhcidStore.open(stateDir);
    const path = dhcidStorePath(stateDir);
    const perUpdate = 240 / MAX_DHCID_PER_NAME;
    let refusal: ReturnType<typeof apply> | undefined;
    let accepted = 0;
    // 12 MiB of 1.7 KB records is about 7,400 records: 31 updates of 240; the loop stops far past that.
    for (let update = 0; update < 100 && !refusal; update++) {
      const updates = Array.from({ length: perUpdate }, (_, o) =>
        Array.from({ length: MAX_DHCID_PER_NAME }, (_, r) => add(longOwner(update * perUpdate + o), bigData(r))),
      ).flat();
      const result = apply(store, updates);
      if (result.ok) accepted++;
      else refusal = result;
      expect(statSync(path).size).toBeLessThanOrEqual(MAX_FILE_BYTES);
    }
    expect(refusal).toMatchObject({
      ok: false,
      rcode: 5,
      ede: EDE.PROHIBITED,
      why: expect.stringMatching(/no room for these DHCID records/),
    });
    expect(accepted).toBeGreaterThan(20);
    const sample = store.of(ZONE).values().next().value![0]!;
    expect(recordBytes(sample)).toBeGreaterThan(1600);
    expect(store.sizeOf(ZONE).bytes).toBeLessThanOrEqual(MAX_RECORD_BYTES);
    // Each record's count is an upper bound of what it takes in the file.
    expect(statSync(path).size).toBeLessThanOrEqual(store.sizeOf(ZONE).bytes + 1024);
    const reopened = DhcidStore.open(stateDir);
    expect(reopened.sizeOf(ZONE)).toEqual(store.sizeOf(ZONE));
  });

  it('never writes a file larger than it reads, whatever it is given', () => {
    const stateDir = tempDir();
    const store = DhcidStore.open(stateDir);
    const owners = Array.from({ length: 1000 }, (_, i) => longOwner(i));
    // Fills most of the budget in one zone, then refuses the bytes past it in another, leaving the file as it was.
    const fill = (count: number) =>
      new Map(
        owners
          .slice(0, count)
          .map((o) => [
            o,
            Array.from(
              { length: MAX_DHCID_PER_NAME },
              (_, r): DhcidRecord => ({ name: o, ttl: 300, data: bigData(r) }),
            ),
          ]),
      );
    store.replace(ZONE, fill(900));
    const before = statSync(dhcidStorePath(stateDir)).size;
    expect(() => store.replace(ZONE, fill(1000))).toThrow(/at most 12582912 bytes of DHCID records/);
    expect(statSync(dhcidStorePath(stateDir)).size).toBe(before);
  });
});
