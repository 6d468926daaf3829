// The daemon's status page at / (over HTTP, the browser test is status-page-browser.test.ts):
// what it shows after a change, the "update now" button and its protections, the token, and
// the CSP that lets only its own inline style and script run.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseFault } from '../../../src/sandbox/faults.js';
import { agentEnv } from '../../helpers/agent-env.js';
import { startDist, tempDir, waitForOutput } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox();
const daemons: ReturnType<typeof startDist>[] = [];
afterEach(async () => {
  for (const d of daemons.splice(0)) {
    d.kill('SIGTERM');
    await d.result;
  }
});

const TOKEN = 'page-token-0123456789abcdef';

/** A daemon whose address comes from a file the test rewrites; resolves once the first cycle is done. */
async function startDaemon(extra: Record<string, string> = {}) {
  const addressFile = join(tempDir(), 'address');
  writeFileSync(addressFile, '81.0.2.15\n');
  const env = agentEnv(sandbox, { DDEDGE_IP_SOURCES: `file:${addressFile}`, DDEDGE_INTERVAL: '1h', ...extra });
  const daemon = startDist(['daemon', '--listen', '127.0.0.1:0'], env);
  daemons.push(daemon);
  const log = await waitForOutput(
    daemon,
    'stderr',
    (t) => /at (http:\S+)\/\n/.test(t) && / set to 81\.0\.2\.15/.test(t),
  );
  return { daemon, env, addressFile, url: /at (http:\S+)\/\n/.exec(log)![1]! };
}

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)![1]!;

describe('the status page', () => {
  it('shows each record, its status in words, the budget and the history, under a strict CSP with one nonce', async () => {
    const { url } = await startDaemon();
    const res = await fetch(`${url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy')!;
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    expect(csp).toBe(
      `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    );
    const html = await res.text();
    // Every inline style and script carries the nonce; nothing is loaded from anywhere.
    expect(html.match(/<(style|script)\b[^>]*>/g)).toEqual([`<style nonce="${nonce}">`, `<script nonce="${nonce}">`]);
    expect(html).not.toMatch(/\b(src|href)="(https?:)?\/\//);
    expect(html).toContain('The record is up to date.');
    // Cells and rows close where the next begins (HTML's optional end tags keep a page of 50 hosts small).
    expect(html).toMatch(
      /<tr><th scope="row">home\.example\.com<td>A<td>81\.0\.2\.15<td>[^<]+, for [^<]+<td>dyndns<td class="ok">Up to date\n/,
    );
    expect(html).toMatch(/Provider calls this hour: <strong>1 of 60<\/strong>/);
    expect(html).toContain('First sent: <code>81.0.2.15</code> via dyndns');
    expect(html).toMatch(/<caption>/);
    // The 30-day picture, with a text alternative saying what it shows.
    expect(html).toMatch(
      /<svg viewBox="0 0 720 \d+" role="img" aria-label="Last 30 days\. home\.example\.com A: 1 address"/,
    );
    // A new nonce for every answer.
    const again = await fetch(`${url}/`);
    expect(/'nonce-([^']+)'/.exec(again.headers.get('content-security-policy')!)![1]).not.toBe(nonce);
  });

  it('while the daemon retries after a failure, "next cycle" is the retry, not the last cycle + --interval', async () => {
    const { url, addressFile, daemon } = await startDaemon();
    sandbox.faults.push(parseFault('dyndns=500x100'));
    writeFileSync(addressFile, '81.0.2.17\n');
    const retrying = waitForOutput(daemon, 'stderr', (t) => /retrying in \d+s/.test(t));
    daemon.kill('SIGUSR1');
    await retrying;
    const html = await (await fetch(`${url}/`)).text();
    // Shown in UTC as "2026-11-28 04:05:06".
    const next = Date.parse(`${/Next cycle: <strong>about <time>([^<]+)<\/time>/.exec(html)![1]!.replace(' ', 'T')}Z`);
    // The first retry comes 15 s (± 10%) after the failure; --interval is an hour.
    expect(next - Date.now()).toBeLessThan(60_000);
  });

  it('shows the address sources of the last detection: each answer and how long it took', async () => {
    const { url } = await startDaemon();
    const html = await (await fetch(`${url}/`)).text();
    expect(html).toContain('<h2 id="sources">Address sources</h2>');
    expect(html).toMatch(
      /<tr><th scope="row">file:(?:[^<]|<wbr>)*address<td>IPv4<td><code>81\.0\.2\.15<\/code><td>\d+ ms<td>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\n/,
    );
  });

  it('"update now" runs a cycle: the page shows the new address and the change in the history', async () => {
    const { url, addressFile, daemon } = await startDaemon();
    const html = await (await fetch(`${url}/`)).text();
    writeFileSync(addressFile, '81.0.2.16\n');
    let stderr = '';
    daemon.stderr!.on('data', (d) => (stderr += d));
    const done = waitForOutput(daemon, 'stderr', (t) => /update now \(status page\): cycle done/.test(t));
    const res = await fetch(`${url}/update-now`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: url, 'content-type': 'application/x-www-form-urlencoded' },
      body: `csrf=${encodeURIComponent(csrfOf(html))}`,
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/?asked=1');
    await done;
    // Said as the page, not as a signal nobody sent.
    expect(stderr).toContain('update now (status page): running a cycle now');
    expect(stderr).not.toContain('SIGUSR1');
    const after = await (await fetch(`${url}/?asked=1`)).text();
    expect(after).toContain('A cycle was asked for');
    expect(after).toMatch(/<th scope="row">home\.example\.com<td>A<td>81\.0\.2\.16<td>/);
    expect(after).toContain('From <code>81.0.2.15</code> to <code>81.0.2.16</code> via dyndns');
    expect(after).toContain('aria-label="Last 30 days. home.example.com A: 2 addresses"');
  });

  it('"update now" refuses cross-site and forged forms, and starts no cycle', async () => {
    const { url, daemon } = await startDaemon();
    const csrf = csrfOf(await (await fetch(`${url}/`)).text());
    const post = (headers: Record<string, string>, body: string) =>
      fetch(`${url}/update-now`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body,
      });
    let stderr = '';
    daemon.stderr!.on('data', (d) => (stderr += d));
    expect((await post({}, `csrf=${csrf}`)).status).toBe(403); // no Origin
    expect((await post({ origin: 'https://evil.example' }, `csrf=${csrf}`)).status).toBe(403);
    expect((await post({ origin: url }, 'csrf=forged')).status).toBe(403);
    expect((await post({ origin: url }, '')).status).toBe(403);
    expect((await fetch(`${url}/update-now`)).status).toBe(405);
    expect((await post({ origin: url }, `csrf=${csrf}&pad=${'x'.repeat(5000)}`)).status).toBe(413);
    expect(stderr).not.toContain('update now');
    expect(stderr).not.toContain('SIGUSR1');
  });

  it('a page asked for by a name other than loopback (DNS rebinding) needs the token; the token opens it', async () => {
    const { url } = await startDaemon({ DDEDGE_LISTEN_TOKEN: TOKEN });
    const port = new URL(url).port;
    const raw = (path: string, headers: Record<string, string>) => rawGet(Number(port), path, headers);
    expect(await raw('/', { host: `evil.example:${port}` })).toMatch(/^HTTP\/1\.1 401 /);
    expect(await raw('/', { host: `evil.example:${port}`, authorization: 'Bearer wrong-token-0123456789' })).toMatch(
      /^HTTP\/1\.1 401 /,
    );
    expect(await raw('/', { host: `evil.example:${port}`, authorization: `Bearer ${TOKEN}` })).toMatch(
      /^HTTP\/1\.1 200 /,
    );
    const viaQuery = await raw(`/?token=${TOKEN}`, { host: `status.example:${port}` });
    expect(viaQuery).toMatch(/^HTTP\/1\.1 200 /);
    // The token typed into the URL is carried by the form and the links, so the button works too.
    expect(viaQuery).toContain(`<input type="hidden" name="token" value="${TOKEN}">`);
    // The JSON endpoints stay open to probes, as before.
    expect(await raw('/healthz', { host: `evil.example:${port}` })).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('is sent gzipped to a browser that takes it', async () => {
    const { url } = await startDaemon();
    const port = new URL(url).port;
    const answer = await rawGet(Number(port), '/', {
      host: `127.0.0.1:${port}`,
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toMatch(/\r\ncontent-encoding: gzip\r\n/i);
    expect(answer).toMatch(/\r\nvary: Accept-Encoding\r\n/i);
  });

  it('without --listen-token, a page asked for by another name is refused (403), saying how to allow it', async () => {
    const { url } = await startDaemon();
    const port = new URL(url).port;
    const answer = await rawGet(Number(port), '/', { host: `evil.example:${port}` });
    expect(answer).toMatch(/^HTTP\/1\.1 403 /);
    expect(answer).toContain('set --listen-token');
  });

  it('a --listen-token shorter than 16 characters is a configuration error', async () => {
    const env = agentEnv(sandbox, { DDEDGE_IP: '81.0.2.15', DDEDGE_LISTEN_TOKEN: 'x1y2z3w4' });
    const result = await startDist(['daemon', '--listen', '127.0.0.1:0'], env).result;
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('DDEDGE_LISTEN_TOKEN: has fewer than 16 characters');
  });
});

/** GET with chosen headers (fetch will not send another Host). */
async function rawGet(port: number, path: string, headers: Record<string, string>): Promise<string> {
  const net = await import('node:net');
  return new Promise((resolve) => {
    let text = '';
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\n${Object.entries(headers)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('')}connection: close\r\n\r\n`,
      );
    });
    socket.on('data', (d) => (text += d));
    socket.on('close', () => resolve(text));
    socket.on('error', () => resolve(text));
    setTimeout(() => socket.destroy(), 15_000).unref();
  });
}
