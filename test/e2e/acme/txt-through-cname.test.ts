// A challenge name that is a CNAME to another name of the zone (a delegated challenge, or a
// DNS-PERSIST-01 record kept at one name for several domains): the authoritative server answers
// the chain and the TXT at its end, and the lookup reads the values there, as a CA's resolver
// does. Against the sandbox's name server, which follows CNAMEs inside the zone.
import { describe, expect, it } from 'vitest';
import { createDnsTxtLookup } from '../../../src/acme/dns-lookup.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox({ dnsPort: 0 });

let nextId = 880_000;
function add(name: string, type: string, value: string): void {
  sandbox.model.services
    .find((s) => s.name === 'example.com')!
    .dns.push({ entityID: String(nextId++), name, type, ttl: '300', priority: '-', value });
}

describe('the TXT values at a name that is a CNAME', () => {
  const server = () => ({ host: '127.0.0.1', port: sandbox.dnsPort! });
  const lookup = createDnsTxtLookup();

  it('are those at the end of the chain', async () => {
    add('_validation-persist.example.com', 'CNAME', 'persist-kept.example.com');
    add('persist-kept.example.com', 'CNAME', 'persist-final.example.com');
    add('persist-final.example.com', 'TXT', 'letsencrypt.org; accounturi=https://ca.example/acct/1');
    expect(
      await lookup.txtValues(server(), '_validation-persist.example.com', 2000, AbortSignal.timeout(5000)),
    ).toEqual(['letsencrypt.org; accounturi=https://ca.example/acct/1']);
  });

  it('are none for a chain that loops, and the lookup ends', async () => {
    add('loop-a.example.com', 'CNAME', 'loop-b.example.com');
    add('loop-b.example.com', 'CNAME', 'loop-a.example.com');
    expect(await lookup.txtValues(server(), 'loop-a.example.com', 2000, AbortSignal.timeout(5000))).toEqual([]);
  });

  it('are still the name’s own when it is no CNAME', async () => {
    add('_acme-challenge.plain.example.com', 'TXT', 'token-1');
    expect(
      await lookup.txtValues(server(), '_acme-challenge.plain.example.com', 2000, AbortSignal.timeout(5000)),
    ).toEqual(['token-1']);
  });
});
