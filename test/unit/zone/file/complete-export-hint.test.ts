// `zone export --complete` finds the zone's name servers through the system's resolver; when
// that fails (a private zone, a split horizon, the sandbox) the message says how to name the
// server instead, since nothing else in it points to --dns-server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDnsServer } from '../../../../src/dns/client/index.js';
import { completeLines } from '../../../../src/zone/file/complete-export.js';
import { startDnsServer } from '../../../helpers/dns-server.js';

let resolver: Awaited<ReturnType<typeof startDnsServer>>;
beforeAll(async () => {
  resolver = await startDnsServer({});
});
afterAll(() => resolver.close());

describe('zone export --complete without --dns-server', () => {
  it('names --dns-server when the resolver does not know the zone', async () => {
    const error = await completeLines('example.com', [], {
      servers: [],
      timeoutMs: 2000,
      resolvers: [parseDnsServer(resolver.server)],
    }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      /the zone example\.com does not exist \(NXDOMAIN\); name a server that answers for example\.com with --dns-server ADDR\[:PORT\]/,
    );
    expect((error as { exitCode?: number }).exitCode).toBe(4);
  });
});
