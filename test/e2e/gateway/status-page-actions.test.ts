// The gateway's "read the zones again now" runs at most once every 30 s whoever asks: presses
// from loopback without a token cannot spend the hour's provider calls (each reading costs
// calls), and a press within that time is answered 429 with when it can run again.
import { describe, expect, it } from 'vitest';
import { useGateway, waitFor } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox({ per: 'file' });
const gateway = useGateway(() => ({
  apiUrl: sandbox.url,
  primaryName: null,
  args: ['--listen', '127.0.0.1:0', '--refresh', '1h', '--max-calls-per-hour', '40'],
  keys: [{ name: 'admin', rules: ['grant "admin" zonesub;'] }],
}));

describe('"read the zones again now" on the gateway\'s page', () => {
  it('reads once however often it is pressed; the budget and /healthz are untouched by the other presses', async () => {
    const url = gateway.endpoint;
    const readings = await gateway.providerCalls('service/dnslist');
    expect(readings).toBeGreaterThan(0);
    const csrf = /name="csrf" value="([^"]+)"/.exec(await (await fetch(`${url}/`)).text())![1]!;
    const press = () =>
      fetch(`${url}/update-now`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: url, 'content-type': 'application/x-www-form-urlencoded' },
        body: `csrf=${encodeURIComponent(csrf)}`,
      });
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 50; i++) {
      const res = await press();
      statuses.push(res.status);
      if (res.status === 429) refused ??= res;
      else await res.text();
    }
    expect(statuses).toEqual([303, ...Array(49).fill(429)]);
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused!.text()).toMatch(
      /^not run: "read the zones again now" last ran at [\d-]+ [\d:]+ UTC and runs at most once every 30 s; it can run again at [\d-]+ [\d:]+ UTC \(in \d+ s\)\n$/,
    );
    await waitFor(
      async () => (await gateway.providerCalls('service/dnslist')) === 2 * readings,
      'the one reading the press asked for',
    );
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await gateway.providerCalls('service/dnslist')).toBe(2 * readings);
  });
});
