// The gateway's page is bounded in bytes, not only in records: a zone of long TXT values (the
// provider holds 60,000 bytes in one) is shown with each value cut, saying how much was left out,
// in a page of a bounded size.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const LONG = 60_000;
const sandbox = useSandbox({ per: 'file' });
const gateway = useGateway(() => {
  const zone = sandbox.model.services.find((s) => s.name === 'example.com')!;
  for (let i = 0; i < 10; i++)
    zone.dns.push({
      entityID: String(730_000 + i),
      name: `long${i}.example.com`,
      type: 'TXT',
      ttl: '300',
      priority: '-',
      value: `${i}`.repeat(LONG),
    });
  return {
    apiUrl: sandbox.url,
    primaryName: null,
    args: ['--listen', '127.0.0.1:0'],
    keys: [{ name: 'admin', rules: ['grant "admin" zonesub;'] }],
  };
});

describe("the gateway's page with long values", () => {
  it('cuts each value, says how many bytes were left out, and stays small', async () => {
    const res = await fetch(`${gateway.endpoint}/`);
    expect(res.status).toBe(200);
    const html = await res.text();
    // Shown as TXT strings are written ("333…" "333…", 255 bytes each), cut after 200 characters.
    // Ten values of 60,000 bytes: 600,000 bytes of values, shown in a page of a few kilobytes.
    expect(Buffer.byteLength(html)).toBeLessThan(64 * 1024);
    expect(html).toMatch(
      /<th scope="row">long3\.example\.com<\/th><td data-label="Type">TXT<\/td><td data-label="TTL">300<\/td><td class="addr" data-label="Value">&#34;3{199}<span class="muted">… \(60,507 bytes more\)<\/span><\/td><\/tr>/,
    );
  });
});
