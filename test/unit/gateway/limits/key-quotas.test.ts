// The owners ledger behind the keys' quotas: a create counts for its key, a change in place keeps
// the owner, a delete by anyone frees the place, a record gone from the provider (deleted
// elsewhere) is forgotten at a re-read, and two gateways on one state directory keep each other's
// zones; a batch counts its own updates against the quota before any is written.
import { describe, expect, it } from 'vitest';
import { OwnersLedger, QuotaBatch } from '../../../../src/gateway/limits/key-quotas.js';
import { parseKeysFile } from '../../../../src/gateway/keys/keys-file.js';
import { silentLogger } from '../../../../src/lib/log.js';
import type { Change } from '../../../../src/zone/plan/plan.js';
import { tempDir } from '../../../helpers/cli.js';

const txt = (name: string, value: string) => ({ name, type: 'TXT' as const, ttl: 60, value });
const create = (name: string, value = 'v'): Change => ({ action: 'create', after: txt(name, value) });
const remove = (name: string, value = 'v'): Change => ({
  action: 'delete',
  before: { ...txt(name, value), entityID: '1' },
});
const SECRET = 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LTEyMzQ=';
const keys = parseKeysFile(
  `key "a" { algorithm hmac-sha256; secret "${SECRET}"; };\nkey "b" { algorithm hmac-sha256; secret "${SECRET}"; };\nquota "a" records 2;\n`,
  'keys',
);

describe('OwnersLedger', () => {
  it('counts creates per key and zone; a change in place keeps its owner; a delete by anyone frees it', () => {
    const ledger = OwnersLedger.inMemory();
    ledger.record('example.com', [{ key: 'a', changes: [create('x.example.com'), create('y.example.com')] }]);
    expect(ledger.held('example.com', 'a')).toEqual({ dhcid: 0, records: 2 });
    expect(ledger.held('example.net', 'a')).toEqual({ dhcid: 0, records: 0 });
    ledger.record('example.com', [
      {
        key: 'b',
        changes: [
          {
            action: 'update',
            before: { ...txt('x.example.com', 'v'), entityID: '1' },
            after: txt('x.example.com', 'w'),
          },
        ],
      },
    ]);
    expect(ledger.ownerOf('example.com', txt('x.example.com', 'w'))).toBe('a');
    ledger.record('example.com', [{ key: 'b', changes: [remove('y.example.com')] }]);
    expect(ledger.held('example.com', 'a')).toEqual({ dhcid: 0, records: 1 });
  });

  it('forgets at a re-read what the provider no longer holds', () => {
    const ledger = OwnersLedger.inMemory();
    ledger.record('example.com', [{ key: 'a', changes: [create('x.example.com'), create('y.example.com')] }]);
    ledger.prune('example.com', [{ ...txt('x.example.com', 'v'), entityID: '1' }], []);
    expect(ledger.held('example.com', 'a')).toEqual({ dhcid: 0, records: 1 });
  });

  it('prunes nothing with a listing read before records were last recorded (it may lack them)', () => {
    const ledger = OwnersLedger.inMemory();
    const since = ledger.version('example.com');
    ledger.record('example.com', [{ key: 'a', changes: [create('x.example.com')] }]);
    ledger.prune('example.com', [], [], since);
    expect(ledger.held('example.com', 'a').records).toBe(1);
    ledger.prune('example.com', [], [], ledger.version('example.com'));
    expect(ledger.held('example.com', 'a').records).toBe(0);
  });

  it("keeps another gateway's zones in the file of a shared state directory", () => {
    const state = tempDir('ddedge-owners-');
    const one = OwnersLedger.open(state, silentLogger);
    const two = OwnersLedger.open(state, silentLogger);
    one.record('example.com', [{ key: 'a', changes: [create('x.example.com')] }]);
    two.record('example.net', [{ key: 'a', changes: [create('x.example.net')] }]);
    one.record('example.com', [{ key: 'a', changes: [create('z.example.com')] }]);
    const again = OwnersLedger.open(state, silentLogger);
    expect(again.held('example.com', 'a').records).toBe(2);
    expect(again.held('example.net', 'a').records).toBe(1);
  });
});

describe('QuotaBatch', () => {
  it("counts the batch's own updates; refuses only growth past the quota; other keys have their own", () => {
    const ledger = OwnersLedger.inMemory();
    const batch = new QuotaBatch(ledger, 'example.com', keys);
    expect(batch.admit('a', [create('x.example.com')])).toBeUndefined();
    expect(batch.admit('a', [create('y.example.com')])).toBeUndefined();
    expect(batch.admit('a', [create('z.example.com')])).toMatch(
      /^the key a may hold at most 2 records created at the provider in example\.com \(it holds 2\)/,
    );
    expect(batch.admit('b', [create('z.example.com')])).toBeUndefined();
    batch.commit();
    expect(ledger.held('example.com', 'a').records).toBe(2);
    const next = new QuotaBatch(ledger, 'example.com', keys);
    // Deleting another key's record makes no room; replacing one of its own does.
    expect(next.admit('a', [remove('z.example.com'), create('w.example.com')])).toMatch(/at most 2/);
    expect(next.admit('a', [remove('x.example.com'), create('w.example.com')])).toBeUndefined();
  });
});
