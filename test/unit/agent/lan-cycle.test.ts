// A prefix learnt from an interface (iface:, the kernel's table injected) works exactly as
// one learnt from an echo source: the same AAAA for the router and every host behind it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCycle } from '../../../src/agent/cycle.js';
import { loadConfig } from '../../../src/config/load.js';
import { createLogger } from '../../../src/lib/log.js';
import { tempDir } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const TABLE = fileURLToPath(new URL('../../fixtures/if_inet6', import.meta.url));
const STABLE = '2a00:1450:4003:12:211:22ff:fe33:4455';

const sandbox = useSandbox();

async function cycleWith(source: string) {
  const { account } = sandbox.model;
  const config = loadConfig({
    flags: {
      ip: '81.0.2.15',
      ipv6: true,
      host: ['home.example.com', 'nas.example.com=::1e2:3ff:fe4a:5b6c', 'tv.example.com=::5'],
      'no-ipv4-for': ['tv.example.com'],
      'ip6-source': [source],
      'state-dir': tempDir(),
    },
    env: {
      DDEDGE_API_URL: sandbox.url,
      DDEDGE_API_USER: account.apiUser,
      DDEDGE_API_PASSWORD: account.apiPassword,
      DDEDGE_DYNDNS_URL: sandbox.url,
      DDEDGE_DYNDNS_USER: account.dyndnsUser,
      DDEDGE_DYNDNS_KEY: account.dyndnsKey,
    },
    purpose: 'cycle',
  });
  const logged: string[] = [];
  const logger = createLogger({ level: 'info', format: 'text', write: (t) => logged.push(t) });
  const report = await runCycle({ config, logger, interfaceTable: TABLE });
  return {
    outcomes: report.outcomes.map(({ host, type, address, prefix, action }) => ({
      host,
      type,
      address,
      prefix,
      action,
    })),
    log: logged.join(''),
  };
}

describe('the IPv6 prefix from an interface', () => {
  it('gives the router and the hosts behind it the same records as an echo source reporting that address', async () => {
    const fromInterface = await cycleWith('iface:wan0');
    expect(fromInterface.log).toMatch(
      /info: iface:wan0 IPv6 address 2a00:1450:4003:12:211:22ff:fe33:4455: global, preferred, stable/,
    );
    expect(fromInterface.outcomes).toEqual([
      { host: 'home.example.com', type: 'A', address: '81.0.2.15', prefix: undefined, action: 'updated' },
      { host: 'nas.example.com', type: 'A', address: '81.0.2.15', prefix: undefined, action: 'updated' },
      { host: 'home.example.com', type: 'AAAA', address: STABLE, prefix: undefined, action: 'updated' },
      {
        host: 'nas.example.com',
        type: 'AAAA',
        address: '2a00:1450:4003:12:1e2:3ff:fe4a:5b6c',
        prefix: '2a00:1450:4003:12::/64',
        action: 'updated',
      },
      {
        host: 'tv.example.com',
        type: 'AAAA',
        address: '2a00:1450:4003:12::5',
        prefix: '2a00:1450:4003:12::/64',
        action: 'updated',
      },
    ]);

    const echo = http.createServer((_req, res) => res.end(`${STABLE}\n`));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    try {
      const fromEcho = await cycleWith(`url:http://127.0.0.1:${(echo.address() as AddressInfo).port}/`);
      // The provider already holds them: the same addresses, from the same prefix.
      expect(fromEcho.outcomes).toEqual(fromInterface.outcomes.map((o) => ({ ...o, action: 'unchanged' })));
    } finally {
      echo.closeAllConnections();
      echo.close();
    }
  });
});
