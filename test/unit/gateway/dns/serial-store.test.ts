// The SOA serial's arithmetic (RFC 1982, 32 bits) and its file: the next serial is the clock
// when the clock is greater, else one more, wrapping past 2^32 - 1; two gateways on one state
// directory keep each other's zones in the file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nextSerial, serialGreater, SerialStore } from '../../../../src/gateway/dns/serial-store.js';
import { silentLogger } from '../../../../src/lib/log.js';
import { tempDir } from '../../../helpers/cli.js';

describe('serial arithmetic', () => {
  it('compares by RFC 1982: across the wrap, 1 is greater than 2^32 - 10', () => {
    expect(serialGreater(1, 2 ** 32 - 10)).toBe(true);
    expect(serialGreater(2 ** 32 - 10, 1)).toBe(false);
    expect(serialGreater(100, 99)).toBe(true);
  });

  it('takes the clock when it is ahead, one more otherwise, wrapping to 0', () => {
    expect(nextSerial(undefined, 1_700_000_000)).toBe(1_700_000_000);
    expect(nextSerial(1_700_000_000, 1_700_000_500)).toBe(1_700_000_500);
    // Ahead of the clock (a burst of changes, or a restart): never back to the clock.
    expect(nextSerial(1_700_000_500, 1_700_000_000)).toBe(1_700_000_501);
    expect(nextSerial(2 ** 32 - 1, 2 ** 31)).toBe(0);
    // A clock past the wrap (by RFC 1982) is greater: taken.
    expect(nextSerial(2 ** 32 - 1, 1_700_000_000)).toBe(1_700_000_000);
  });
});

describe('SerialStore', () => {
  it('keeps each zone across an open, and the zones another gateway wrote', () => {
    const state = tempDir('ddedge-serials-');
    const one = SerialStore.open(state, silentLogger);
    const two = SerialStore.open(state, silentLogger);
    one.set('example.com', { serial: 10, digest: 'a' });
    two.set('example.net', { serial: 20, digest: 'b' });
    one.set('example.com', { serial: 11, digest: 'c' });
    const again = SerialStore.open(state, silentLogger);
    expect(again.get('example.com')).toEqual({ serial: 11, digest: 'c' });
    expect(again.get('example.net')).toEqual({ serial: 20, digest: 'b' });
    expect(Object.keys(JSON.parse(readFileSync(join(state, 'gateway', 'serials.json'), 'utf8')) as object)).toEqual([
      'example.com',
      'example.net',
    ]);
  });
});
