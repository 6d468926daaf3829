// The daemon's warning before a DNS-PERSIST-01 record's persistUntil, through the built file: a
// record kept by `acme persist` in the daemon's state directory, 5 days from its persistUntil,
// is told once (event persist-expiring, to a URL that chose only that event) and logged.
import { afterEach, describe, expect, it } from 'vitest';
import { acmeEnv } from '../../helpers/acme.js';
import { runDist, startDist, waitForOutput } from '../../helpers/cli.js';
import { startServer, tlsFiles, type TestServer } from '../../helpers/servers.js';
import { useSandbox } from '../../helpers/use-sandbox.js';
import { waitUntil } from '../../helpers/wait.js';

const sandbox = useSandbox();
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const ACCOUNT = 'https://acme.example/acme/acct/42';

describe('daemon: the DNS-PERSIST-01 expiry warning', () => {
  it('tells once, 14 days or less before persistUntil', async () => {
    const bodies: string[] = [];
    const server = await startServer(
      (_req, res, body) => {
        bodies.push(body);
        res.end('{}');
      },
      { tls: true },
    );
    servers.push(server);
    const env = {
      ...acmeEnv(sandbox),
      DDEDGE_DYNDNS_URL: sandbox.url,
      DDEDGE_DYNDNS_USER: sandbox.model.account.dyndnsUser,
      DDEDGE_DYNDNS_KEY: sandbox.model.account.dyndnsKey,
      DDEDGE_HOSTS: 'home.example.com',
      NODE_EXTRA_CA_CERTS: tlsFiles().ca,
    };
    const kept = await runDist(
      ['acme', 'persist', 'example.com', '--issuer', 'letsencrypt.org', '--account-uri', ACCOUNT, '--until', '5d'],
      env,
    );
    expect(kept.code, kept.stderr).toBe(0);

    const daemon = startDist(['daemon', '--ip', '81.0.2.15'], {
      ...env,
      DDEDGE_NOTIFY: `${server.url.replace(/\/$/, '')}/hook?events=persist-expiring`,
      DDEDGE_INTERVAL: '1h',
    });
    try {
      const log = await waitForOutput(daemon, 'stderr', (t) => /stops accepting it/.test(t));
      expect(log).toMatch(/_validation-persist\.example\.com: the DNS-PERSIST-01 record: letsencrypt\.org stops/);
      await waitUntil(() => bodies.length > 0, 'the persist-expiring notification');
      const document = JSON.parse(bodies[0]!);
      expect(document).toMatchObject({ event: 'persist-expiring', host: 'example.com' });
      expect(document.message).toMatch(/in 4 days; extend it: ddedge acme persist example\.com/);
      daemon.kill('SIGUSR1');
      await waitForOutput(daemon, 'stderr', (t) => /SIGUSR1: cycle done/.test(t));
    } finally {
      daemon.kill('SIGTERM');
      expect((await daemon.result).code).toBe(0);
    }
    expect(bodies).toHaveLength(1);
  });
});
