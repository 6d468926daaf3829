// A name server that never shows the value is named in the timeout's message as a person would
// write it: an IPv6 address in brackets before its port.
import { describe, expect, it } from 'vitest';
import { waitUntilVisible, type NameServer } from '../../../src/acme/propagation.js';
import { silentLogger } from '../../../src/lib/log.js';

describe('waitUntilVisible, out of time', () => {
  it('names IPv6 servers as [ADDR]:PORT, IPv4 ones as ADDR:PORT', async () => {
    const servers: NameServer[] = [
      { host: '::1', port: 53, name: 'ns1.example.com' },
      { host: '::1', port: 5353 },
      { host: '127.0.0.1', port: 53 },
    ];
    const visible = waitUntilVisible({
      name: '_acme-challenge.example.com',
      value: 'token',
      zone: 'example.com',
      servers,
      // The deadline is the event the test waits for: every server answers another value until then.
      timeoutMs: 20,
      queryTimeoutMs: 20,
      lookup: { authoritativeServers: async () => servers, txtValues: async () => ['other'] },
      logger: silentLogger,
    });
    const error = await visible.then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toContain('ns1.example.com ([::1]:53): answers 1 other value');
    expect(error?.message).toContain('[::1]:5353: answers');
    expect(error?.message).toContain('127.0.0.1:53: answers');
  });
});
