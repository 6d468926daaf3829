// The daemon's HTTP endpoint: /healthz by the health rule, the status page for this machine
// (the agent's view of its records), its "update now" button only from the page itself, and
// requests it never serves (other methods, bodies) refused.
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { silentLogger } from '../../../src/lib/log.js';
import { startAgentEndpoint } from '../../../src/agent/endpoint.js';
import { startEndpoint } from '../../../src/probe/server.js';
import { emptyState, writeState } from '../../../src/state/state.js';
import { tempDir } from '../../helpers/cli.js';
import { FakeClock } from '../../helpers/fake-clock.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function ask(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

async function endpoint(clock = new FakeClock()) {
  const stateDir = tempDir('ddedge-endpoint-');
  const config = loadConfig({
    flags: { host: 'home.example.com' },
    env: { HOME: stateDir, DDEDGE_STATE_DIR: stateDir, DDEDGE_DYNDNS_USER: 'u', DDEDGE_DYNDNS_KEY: 'dyndns-key-1' },
    purpose: 'cycle',
    isRoot: false,
  });
  const asked: number[] = [];
  const started = await startAgentEndpoint({
    listen: { host: '127.0.0.1', port: 0, loopback: true },
    config: () => config,
    logger: silentLogger,
    updateNow: () => void asked.push(1),
    clock,
  });
  return { ...started, stateDir, asked, clock };
}

describe('the endpoint', () => {
  it('answers /healthz 503 before a successful cycle and 200 after one', async () => {
    const served = await endpoint();
    try {
      const before = await ask(`${served.url}/healthz`);
      expect(before.status).toBe(503);
      expect(before.body).toMatch(/^unhealthy: no successful cycle yet/);
      writeState(served.stateDir, { ...emptyState(), lastSuccessAt: new Date().toISOString() });
      const after = await ask(`${served.url}/healthz`);
      expect(after.status).toBe(200);
      expect(after.headers['cache-control']).toBe('no-store');
    } finally {
      await served.close();
    }
  });

  it('refuses other methods and request bodies', async () => {
    const served = await endpoint();
    try {
      expect((await ask(`${served.url}/healthz`, { method: 'POST' })).status).toBe(405);
      expect((await ask(`${served.url}/metrics`, { headers: { 'content-length': '2' }, body: 'xx' })).status).toBe(413);
      expect((await ask(`${served.url}/`, { method: 'DELETE' })).status).toBe(405);
    } finally {
      await served.close();
    }
  });

  it('serves the status page to this machine under a nonce policy, with the configured host on it', async () => {
    const served = await endpoint();
    try {
      const page = await ask(`${served.url}/`);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['content-security-policy']).toMatch(/script-src 'nonce-[\w+/=]+'/);
      expect(page.body).toMatch(/>home\.example\.com<td>A<td>-<td>-<td>-<td class="none">Not sent yet/);
      writeState(served.stateDir, {
        ...emptyState(),
        records: {
          'home.example.com/A': {
            host: 'home.example.com',
            type: 'A',
            address: '81.0.2.15',
            lastError: 'refused by the provider',
          },
        },
      });
      const failing = await ask(`${served.url}/`);
      expect(failing.body).toMatch(/>home\.example\.com<td>A<td>81\.0\.2\.15<.*refused by the provider/s);
      // Asked by another name (a re-pointed one), the same machine is refused.
      const rebound = await ask(`${served.url}/`, { headers: { host: 'evil.example' } });
      expect(rebound.status).toBe(403);
    } finally {
      await served.close();
    }
  });

  it("asks for a cycle from the page's own form, and refuses a form from elsewhere", async () => {
    const served = await endpoint();
    try {
      const page = await ask(`${served.url}/`);
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
      const host = new URL(served.url).host;
      const form = { 'content-type': 'application/x-www-form-urlencoded', host };
      const foreign = await ask(`${served.url}/update-now`, {
        method: 'POST',
        headers: { ...form, origin: 'http://evil.example' },
        body: `csrf=${encodeURIComponent(csrf)}`,
      });
      expect(foreign.status).toBe(403);
      const forged = await ask(`${served.url}/update-now`, {
        method: 'POST',
        headers: { ...form, origin: `http://${host}` },
        body: 'csrf=guess',
      });
      expect(forged.status).toBe(403);
      expect(served.asked).toEqual([]);
      const pressed = await ask(`${served.url}/update-now`, {
        method: 'POST',
        headers: { ...form, origin: `http://${host}` },
        body: `csrf=${encodeURIComponent(csrf)}`,
      });
      expect(pressed.status).toBe(303);
      expect(pressed.headers.location).toBe('/?asked=1');
      expect(served.asked).toEqual([1]);
    } finally {
      await served.close();
    }
  });

  it('"update now" runs at most once every 30 s whoever asks; a press within that time says when it may run again', async () => {
    const clock = new FakeClock(Date.UTC(2026, 10, 28, 4, 5, 6));
    const served = await endpoint(clock);
    try {
      const page = await ask(`${served.url}/`);
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
      const host = new URL(served.url).host;
      const press = () =>
        ask(`${served.url}/update-now`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', host, origin: `http://${host}` },
          body: `csrf=${encodeURIComponent(csrf)}`,
        });
      expect((await press()).status).toBe(303);
      clock.advance(10_000);
      const again = await press();
      expect(again.status).toBe(429);
      expect(again.headers['retry-after']).toBe('20');
      expect(again.body).toBe(
        'not run: "update now" last ran at 2026-11-28 04:05:06 UTC and runs at most once every 30 s; it can run ' +
          'again at 2026-11-28 04:05:36 UTC (in 20 s)\n',
      );
      expect(served.asked).toEqual([1]);
      clock.advance(20_000);
      expect((await press()).status).toBe(303);
      expect(served.asked).toEqual([1, 1]);
    } finally {
      await served.close();
    }
  });

  it('a history file that parses but holds a wrong field: the page answers 200 and says the file is damaged', async () => {
    const served = await endpoint();
    try {
      const entry = { at: '2026-01-01T00:00:00Z', host: 'home.example.com', type: 'A', event: 'changed', new: 5 };
      writeFileSync(join(served.stateDir, 'history.json'), JSON.stringify({ version: 1, entries: [entry] }));
      const page = await ask(`${served.url}/`);
      expect(page.status).toBe(200);
      expect(page.body).toContain('history.json is damaged (entries[0].new is not a string)');
      const notAnAddress = { ...entry, new: '<i>5</i>' };
      writeFileSync(join(served.stateDir, 'history.json'), JSON.stringify({ version: 1, entries: [notAnAddress] }));
      const again = await ask(`${served.url}/`);
      expect(again.status).toBe(200);
      expect(again.body).toContain('history.json is damaged (entries[0].new is not an IP address)');
    } finally {
      await served.close();
    }
  });

  it('names --listen when the port is taken', async () => {
    const first = await endpoint();
    try {
      const port = Number(new URL(first.url).port);
      await expect(
        startEndpoint({
          listen: { host: '127.0.0.1', port, loopback: true },
          logger: silentLogger,
          answer: () => ({ status: 200, contentType: 'text/plain', body: '' }),
        }),
      ).rejects.toThrow(/--listen/);
    } finally {
      await first.close();
    }
  });
});
