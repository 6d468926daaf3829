import { isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  canonicalAddress,
  familyOfAddress,
  isLoopbackHost,
  nonPublicReason,
  toBigInt,
} from '../../../src/lib/address.js';

describe('public-address rules', () => {
  it.each([
    ['0.1.2.3', 'this network'],
    ['10.1.2.3', 'private'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.254', 'shared'],
    ['127.0.0.1', 'loopback'],
    ['169.254.10.1', 'link-local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.9', 'IETF'],
    ['192.0.2.1', 'documentation'],
    ['192.31.196.1', 'AS112'],
    ['192.52.193.1', 'AMT'],
    ['192.88.99.1', '6to4'],
    ['192.168.1.1', 'private'],
    ['192.175.48.1', 'AS112'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.1', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.7', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
  ])('refuses IPv4 %s (%s)', (address, reason) => {
    expect(nonPublicReason(address)).toContain(reason);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '81.0.2.15',
    '100.63.255.255',
    '100.128.0.1',
    '172.15.255.255',
    '172.32.0.1',
    '192.0.3.1',
    '198.17.255.255',
    '198.20.0.1',
    '223.255.255.254',
  ])('accepts public IPv4 %s', (address) => expect(nonPublicReason(address)).toBeUndefined());

  it.each([
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::ffff:81.0.2.15', 'IPv4-mapped'],
    ['64:ff9b::1.2.3.4', 'translation'],
    ['64:ff9b:1::1', 'translation'],
    ['100::1', 'discard'],
    ['2001::1', 'IETF'],
    ['2001:2::1', 'IETF'],
    ['2001:db8::1', 'documentation'],
    ['2002:c000:204::1', '6to4'],
    ['2620:4f:8000::1', 'AS112'],
    ['3fff::1', 'documentation'],
    ['5f00::1', 'segment'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['4000::1', 'outside 2000::/3'],
    ['::2', 'outside 2000::/3'],
  ])('refuses IPv6 %s (%s)', (address, reason) => {
    expect(nonPublicReason(address)).toContain(reason);
  });

  it.each(['2a00:1450:4003:80e::200e', '2606:4700:4700::1111', '2001:4860:4860::8888', '2400:cb00::1'])(
    'accepts public IPv6 %s',
    (address) => {
      expect(nonPublicReason(address)).toBeUndefined();
    },
  );

  it('refuses what is not an address', () => {
    expect(nonPublicReason('example.com')).toBe('not an IP address');
    expect(nonPublicReason('fe80::1%eth0')).toBe('not an IP address');
    expect(nonPublicReason('1.2.3.256')).toBe('not an IP address');
  });
});

describe('canonical form', () => {
  it('writes IPv6 as RFC 5952 does', () => {
    expect(canonicalAddress('2A00:1450:0:0:0:0:0:200E')).toBe('2a00:1450::200e');
    expect(canonicalAddress('2001:db8:0:1:0:0:0:1')).toBe('2001:db8:0:1::1');
    expect(canonicalAddress('2001:db8:1:1:1:1:1:1')).toBe('2001:db8:1:1:1:1:1:1');
    expect(canonicalAddress('81.0.2.15')).toBe('81.0.2.15');
  });
});

describe('loopback hosts (the only ones allowed over http)', () => {
  it.each(['127.0.0.1', '127.8.9.1', 'localhost', 'api.localhost', '[::1]', '::1'])('%s is loopback', (h) =>
    expect(isLoopbackHost(h)).toBe(true),
  );
  it.each(['10.0.0.1', 'example.com', '[::2]', 'localhost.example.com', '128.0.0.1'])('%s is not', (h) =>
    expect(isLoopbackHost(h)).toBe(false),
  );
});

describe('address parser', () => {
  const samples = [
    '1.2.3.4',
    '0.0.0.0',
    '255.255.255.255',
    '256.1.1.1',
    '1.2.3',
    '1.2.3.4.5',
    '01.2.3.4',
    '1.2.3.04',
    ' 1.2.3.4',
    '1.2.3.4 ',
    '',
    '::',
    '::1',
    '1::',
    '1:2:3:4:5:6:7:8',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    '1::2::3',
    ':1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:',
    '::ffff:1.2.3.4',
    '::1.2.3.4',
    '1:2:3:4:5:6:1.2.3.4',
    '1:2:3:4:5:6:7:1.2.3.4',
    '::ffff:1.2.3',
    '::ffff:256.1.1.1',
    '1.2.3.4::',
    '2001:db8::12345',
    '2001:db8::g',
    'fe80::1%eth0',
    '[::1]',
    '2a00:1450:4003:80e::200e',
    'FFFF::',
    '::ffff:0:0',
    '1:2:3:4:5::6:7:8',
  ];
  it.each(samples)('agrees with Node on %j', (text) => {
    const node = isIP(text);
    expect(familyOfAddress(text) ?? 0).toBe(node === 6 && text.includes('%') ? 0 : node);
  });
  it('converts to the same integer whatever the spelling', () => {
    expect(toBigInt('::ffff:1.2.3.4')).toBe(toBigInt('::ffff:102:304'));
    expect(toBigInt('2001:db8:0:0:0:0:0:1')).toBe(toBigInt('2001:db8::1'));
    expect(toBigInt('1.2.3.4')).toBe(0x01020304n);
  });
});
