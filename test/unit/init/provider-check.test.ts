// init's one read before it writes: what the zone holds for each host, a CNAME refused, wrong
// credentials refused as every command refuses them (exit 3), and no request at all with the
// dynamic DNS key alone (that interface has no read).
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { checkWithProvider } from '../../../src/init/provider-check.js';
import { createLogger } from '../../../src/lib/log.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox();
const quiet = createLogger({ level: 'error', format: 'text', write: () => {} });
const configOf = (env: Record<string, string>) =>
  loadConfig({ flags: {}, env: { HOME: '/nonexistent', ...env }, purpose: 'cycle' });
const withApi = (hosts: string, password = sandbox.credentials.apiPassword) =>
  configOf({
    DDEDGE_HOSTS: hosts,
    DDEDGE_API_URL: sandbox.url,
    DDEDGE_API_USER: sandbox.credentials.apiUser,
    DDEDGE_API_PASSWORD: password,
  });

describe("init's check with the provider", () => {
  it('says what the zone holds for each host, in one read', async () => {
    const lines = await checkWithProvider(withApi('home.example.com,new.example.com'), quiet);
    expect(lines[0]).toMatch(/^example\.com: \d+ records at \d+ names \(.*home\.example\.com/);
    expect(lines[1]).toMatch(/^home\.example\.com: A 192\.0\.2\.20; ddedge keeps it up to date$/);
    expect(lines[2]).toMatch(/^new\.example\.com: no A or AAAA entry yet; the first update creates it$/);
    expect(sandbox.calls.get('service/dnslist')).toBe(1);
  });

  it('refuses a host that is a CNAME, saying what to do', async () => {
    await expect(checkWithProvider(withApi('www.example.com'), quiet)).rejects.toThrow(
      /www\.example\.com is a CNAME to example\.com: .*remove the CNAME.*nothing was written/,
    );
  });

  it('refuses wrong credentials with the exit code of rejected credentials', async () => {
    await expect(checkWithProvider(withApi('home.example.com', 'wrong'), quiet)).rejects.toMatchObject({
      exitCode: 3,
    });
  });

  it('asks nothing with the dynamic DNS key alone, and says the first update checks it', async () => {
    const config = configOf({
      DDEDGE_HOSTS: 'home.example.com',
      DDEDGE_DYNDNS_URL: sandbox.url,
      DDEDGE_DYNDNS_USER: 'u',
      DDEDGE_DYNDNS_KEY: 'k',
    });
    expect(await checkWithProvider(config, quiet)).toEqual([expect.stringMatching(/first `ddedge update`/)]);
    expect([...sandbox.calls.values()]).toEqual([]);
  });
});
