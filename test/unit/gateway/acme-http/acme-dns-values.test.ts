// The order of the values acme-dns clients wrote: the two newest kept, the order surviving a restart.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AcmeDnsValues } from '../../../../src/gateway/acme-http/acme-dns-values.js';
import { tempDir } from '../../../helpers/cli.js';

describe('AcmeDnsValues', () => {
  it('says which values fall out of the two newest of a name, and remembers across a new instance', () => {
    const dir = tempDir('ddedge-acme-dns-values-');
    const values = new AcmeDnsValues(dir);
    expect(values.write('_acme-challenge.example.com', 'a')).toEqual([]);
    expect(values.write('_acme-challenge.example.com', 'b')).toEqual([]);
    expect(values.write('_acme-challenge.example.org', 'x')).toEqual([]);
    expect(values.write('_acme-challenge.example.com', 'c')).toEqual(['a']);
    // Written again, a value becomes the newest: nothing falls out.
    expect(values.write('_acme-challenge.example.com', 'b')).toEqual([]);
    const again = new AcmeDnsValues(dir);
    expect(again.write('_acme-challenge.example.com', 'd')).toEqual(['c']);
    expect(again.write('_acme-challenge.example.org', 'y')).toEqual([]);
    // Two gateways on one state directory: each sees what the other wrote.
    expect(values.write('_acme-challenge.example.org', 'z')).toEqual(['x']);
  });

  it('a failed update gives back the values it was to remove, and its own only when it may have been written', () => {
    const values = new AcmeDnsValues(tempDir('ddedge-acme-dns-values-'));
    const name = '_acme-challenge.example.com';
    values.write(name, 'a');
    values.write(name, 'b');
    const removed = values.write(name, 'c');
    expect(removed).toEqual(['a']);
    values.failed(name, 'c', removed, false);
    expect(values.write(name, 'd')).toEqual(['a']);
    values.failed(name, 'd', ['a'], true);
    // a, b and the d that may be there are removed by the next update that succeeds.
    expect(values.write(name, 'e')).toEqual(['a', 'b']);
    values.failed(name, 'x', [], false);
    expect(values.write(name, 'f')).toEqual(['d']);
  });

  it('reads a damaged file as empty (set aside), and writes a good one', () => {
    const dir = tempDir('ddedge-acme-dns-values-');
    mkdirSync(join(dir, 'gateway'));
    const nine = JSON.stringify([...'abcdefghi']);
    writeFileSync(join(dir, 'gateway', 'acme-dns.json'), `{"version": 1, "names": {"n": ${nine}}}`);
    const values = new AcmeDnsValues(dir);
    expect(values.write('n', 'd')).toEqual([]);
    expect(new AcmeDnsValues(dir).write('n', 'e')).toEqual([]);
    expect(new AcmeDnsValues(dir).write('n', 'f')).toEqual(['d']);
  });
});
