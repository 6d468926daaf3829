// The gateway's --listen over TLS (--listen-cert, --listen-key, the test CA's certificate for
// 127.0.0.1, verified), beyond loopback: the token is asked of every client, this machine
// included, and never crosses the network in clear text.
import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tlsFiles } from '../../helpers/servers.js';
import { useGateway } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const TOKEN = 'gateway-page-token-0123456789';
const sandbox = useSandbox({ per: 'file' });
const gateway = useGateway(() => ({
  apiUrl: sandbox.url,
  primaryName: null,
  args: ['--listen', '0.0.0.0:0', '--listen-cert', tlsFiles().cert, '--listen-key', tlsFiles().key],
  env: { DDEDGE_LISTEN_TOKEN: TOKEN },
  keys: [{ name: 'admin', rules: ['grant "admin" zonesub;'] }],
}));

function tlsGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, ca: readFileSync(tlsFiles().ca) }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe("the gateway's --listen over TLS, beyond loopback", () => {
  it('answers over HTTPS; the page needs the token from this machine too', async () => {
    expect(gateway.endpoint).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(gateway.stderr()).not.toContain('clear text');
    expect((await tlsGet(`${gateway.endpoint}/healthz`)).status).toBe(200);
    expect((await tlsGet(`${gateway.endpoint}/`)).status).toBe(401);
    const page = await tlsGet(`${gateway.endpoint}/`, { authorization: `Bearer ${TOKEN}` });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1>ddedge: DNS gateway status</h1>');
  });
});
