// Who needs the status page's token follows the address --listen names, never the client's: beyond
// loopback every request needs it, one from this machine included (a reverse proxy on this host is
// a client like any other), and without a token set there the page is off. --listen-cert and
// --listen-key serve the endpoint over TLS, so the token never crosses a network in clear text
// (the test CA's certificate for 127.0.0.1, verified).
import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { agentEnv } from '../../helpers/agent-env.js';
import { runDist, startDist, waitForOutput } from '../../helpers/cli.js';
import { tlsFiles } from '../../helpers/servers.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox({ per: 'file' });
const daemons: ReturnType<typeof startDist>[] = [];
afterEach(async () => {
  for (const d of daemons.splice(0)) {
    d.kill('SIGTERM');
    await d.result;
  }
});

const TOKEN = 'page-token-0123456789abcdef';

async function startDaemon(args: string[], extra: Record<string, string> = {}) {
  const env = agentEnv(sandbox, { DDEDGE_IP: '81.0.2.15', DDEDGE_INTERVAL: '1h', ...extra });
  const daemon = startDist(['daemon', ...args], env);
  daemons.push(daemon);
  // Once the first cycle is done (/healthz is 503 before it).
  const log = await waitForOutput(
    daemon,
    'stderr',
    (t) => /serving \/healthz.* at (https?:\S+)\//.test(t) && /(set to|already held) 81\.0\.2\.15/.test(t),
  );
  return { log, url: /serving \/healthz.* at (https?:\/\/\S+?)\//.exec(log)![1]! };
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTPS request, verified against the test CA. */
function tlsAsk(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, ca: readFileSync(tlsFiles().ca) },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('the status page beyond loopback', () => {
  it('asks every client for the token, this machine and a proxy on it included; warns that it crosses in clear text', async () => {
    const { url, log } = await startDaemon(['--listen', '0.0.0.0:0'], { DDEDGE_LISTEN_TOKEN: TOKEN });
    expect(log).toMatch(
      /warn: --listen 0\.0\.0\.0:0: the status page's token crosses the network in clear text; give --listen-cert and --listen-key/,
    );
    const open = await fetch(`${url}/`);
    expect(open.status).toBe(401);
    expect(open.headers.get('www-authenticate')).toBe('Bearer realm="ddedge"');
    // A reverse proxy on this host forwards the visitor's Host; it is asked for the token too.
    expect((await fetch(`${url}/`, { headers: { 'x-forwarded-for': '192.0.2.7' } })).status).toBe(401);
    expect((await fetch(`${url}/`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    expect((await fetch(`${url}/?token=${TOKEN}`)).status).toBe(200);
    // The probes' endpoints stay open.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it('without --listen-token, the page and its button are off for every client (403), and the log says why', async () => {
    const { url, log } = await startDaemon(['--listen', '0.0.0.0:0']);
    expect(log).toMatch(/the status page \(\/\) is off: beyond loopback every request needs --listen-token/);
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(403);
    expect(await page.text()).toMatch(/^the status page is off: --listen is beyond loopback/);
    const button = await fetch(`${url}/update-now`, {
      method: 'POST',
      headers: { origin: url, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'csrf=x',
    });
    expect(button.status).toBe(403);
    expect((await fetch(`${url}/metrics`)).status).toBe(200);
  });
});

describe('--listen-cert and --listen-key', () => {
  it('serve the endpoint, the page and its button over TLS', async () => {
    const { cert, key } = tlsFiles();
    const { url, log } = await startDaemon(['--listen', '127.0.0.1:0', '--listen-cert', cert, '--listen-key', key], {
      DDEDGE_LISTEN_TOKEN: TOKEN,
    });
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(log).toMatch(/the status page for people: https:\/\/127\.0\.0\.1:\d+\//);
    expect((await tlsAsk(`${url}/healthz`)).status).toBe(200);
    const page = await tlsAsk(`${url}/`);
    expect(page.status).toBe(200);
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const body = `csrf=${encodeURIComponent(csrf)}`;
    // The page's origin is https://…: a form from the same host over plain HTTP is another site.
    const plainOrigin = url.replace('https:', 'http:');
    expect(
      (await tlsAsk(`${url}/update-now`, { method: 'POST', headers: { ...form, origin: plainOrigin }, body })).status,
    ).toBe(403);
    const pressed = await tlsAsk(`${url}/update-now`, { method: 'POST', headers: { ...form, origin: url }, body });
    expect(pressed.status).toBe(303);
    // Plain HTTP on the TLS port gets no answer of the endpoint's.
    await expect(fetch(`${plainOrigin}/healthz`)).rejects.toThrow();
  });

  it('beyond loopback over TLS, no clear-text warning; the variables DDEDGE_LISTEN_CERT/KEY do the same', async () => {
    const { cert, key } = tlsFiles();
    const { url, log } = await startDaemon(['--listen', '0.0.0.0:0'], {
      DDEDGE_LISTEN_TOKEN: TOKEN,
      DDEDGE_LISTEN_CERT: cert,
      DDEDGE_LISTEN_KEY: key,
    });
    expect(log).not.toContain('clear text');
    expect((await tlsAsk(`${url}/`)).status).toBe(401);
    expect((await tlsAsk(`${url}/`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  it.each([
    [['--listen-cert', 'CERT'], /--listen-cert and --listen-key go together/],
    [
      ['--listen-cert', '/nonexistent.pem', '--listen-key', 'KEY'],
      /--listen-cert: cannot read "\/nonexistent\.pem": ENOENT/,
    ],
    [['--listen-cert', 'KEY', '--listen-key', 'KEY'], /--listen-cert: ".*server\.key" holds no PEM certificate/],
    [['--listen-cert', 'CA', '--listen-key', 'KEY'], /--listen-cert\/--listen-key: .*key values mismatch/],
  ])('%j is exit 2 saying why', async (args, message) => {
    const files = tlsFiles();
    const given = args.map((a) => (a === 'CERT' ? files.cert : a === 'KEY' ? files.key : a === 'CA' ? files.ca : a));
    const run = await runDist(
      ['daemon', '--listen', '127.0.0.1:0', ...given],
      agentEnv(sandbox, { DDEDGE_IP: '81.0.2.15', DDEDGE_INTERVAL: '1h' }),
    );
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});
