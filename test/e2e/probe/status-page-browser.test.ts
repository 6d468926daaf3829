// The status page in a real browser: Debian's headless Chromium driven by puppeteer-core
// (nothing downloads a browser), against a daemon on the sandbox. Checks what a visitor gets:
// no console error (a CSP violation is one), no request leaving loopback, light and dark,
// a 360 px phone without sideways scrolling of the page, axe-core with no serious or critical
// violation, and the button. With DDEDGE_SCREENSHOTS=docs it also writes the screenshots the
// docs/running.md shows (docs/status-page-*.png).
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentEnv, withApi } from '../../helpers/agent-env.js';
import { runDist, startDist, tempDir, waitForOutput } from '../../helpers/cli.js';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/use-gateway.js';
import { requireTool } from '../../helpers/programs.js';
import { useSandbox } from '../../helpers/use-sandbox.js';
import { waitUntil } from '../../helpers/wait.js';
import { keygenText } from '../../../src/gateway/keys/keygen.js';
import { renderAgentPage } from '../../../src/agent/status-page.js';
import type { AgentPageView } from '../../../src/agent/page-view.js';

const CHROMIUM = requireTool('chromium-headless-shell');
const present = CHROMIUM !== undefined;
const SHOTS =
  process.env.DDEDGE_SCREENSHOTS === 'docs' ? resolve(import.meta.dirname, '../../../docs') : tempDir('ddedge-shots-');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** `address`'s page in a new tab, with the console errors, page errors and every request's URL recorded. */
async function openPage(
  within: Browser,
  address: string,
  scheme: 'light' | 'dark',
  viewport: { width: number; height: number; isMobile?: boolean },
) {
  const page = await within.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => requests.push(r.url()));
  await page.setViewport({ ...viewport, deviceScaleFactor: 1 });
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
  await page.goto(`${address}/`, { waitUntil: 'load' });
  return { page, errors, requests };
}

let browser: Browser;
let daemon: ReturnType<typeof startDist>;
let url: string;
let addressFile: string;
/** A second address source with a port in its URL (as most are): it answers what the file holds. */
let echo: Server;
let echoUrl: string;

/**
 * Weeks of history before the test's own entries, so that the 30-day picture has something to
 * show: as the agent writes it (history.json), older entries first.
 */
function seedOlderHistory(dir: string): void {
  const path = join(dir, 'history.json');
  const history = JSON.parse(readFileSync(path, 'utf8')) as { version: 1; entries: Record<string, unknown>[] };
  const day = 86_400_000;
  const at = (daysAgo: number) => new Date(Date.now() - daysAgo * day).toISOString();
  const older = [
    { at: at(27), host: 'home.example.com', type: 'A', event: 'changed', new: '81.0.2.10', via: 'dyndns' },
    { at: at(27), host: 'nas.example.com', type: 'A', event: 'changed', new: '81.0.2.10', via: 'api' },
    {
      at: at(18),
      host: 'home.example.com',
      type: 'A',
      event: 'changed',
      old: '81.0.2.10',
      new: '81.0.2.11',
      via: 'dyndns',
    },
    {
      at: at(18),
      host: 'nas.example.com',
      type: 'A',
      event: 'changed',
      old: '81.0.2.10',
      new: '81.0.2.11',
      via: 'api',
    },
    {
      at: at(9),
      host: 'home.example.com',
      type: 'A',
      event: 'failed',
      reason: 'transient',
      message: 'no answer from the dynamic DNS interface within 15000 ms',
      count: 40,
      lastAt: at(8.5),
    },
    { at: at(8.5), host: 'home.example.com', type: 'A', event: 'recovered' },
    {
      at: at(4),
      host: 'home.example.com',
      type: 'A',
      event: 'changed',
      old: '81.0.2.11',
      new: '81.0.2.13',
      via: 'dyndns',
    },
    { at: at(4), host: 'nas.example.com', type: 'A', event: 'changed', old: '81.0.2.11', new: '81.0.2.13', via: 'api' },
  ];
  history.entries = [
    ...older,
    ...history.entries.map((e) => (e.old === undefined && e.event === 'changed' ? { ...e, old: '81.0.2.13' } : e)),
  ];
  writeFileSync(path, JSON.stringify(history));
}

describe.skipIf(!present)('the status page in Chromium', () => {
  const sandbox = useSandbox({ per: 'file' });
  beforeAll(async () => {
    addressFile = join(tempDir(), 'address');
    echo = createServer((_req, res) => res.end(readFileSync(addressFile, 'utf8')));
    await new Promise<void>((done) => echo.listen(0, '127.0.0.1', done));
    echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/what-is-my-address/v4`;
    // Some history first: two addresses, then the daemon on a third, and a host that fails.
    const env = agentEnv(sandbox, {
      ...withApi(sandbox),
      DDEDGE_HOSTS: 'home.example.com,nas.example.com,vpn.example.org',
      DDEDGE_INTERVAL: '1h',
      DDEDGE_IP_SOURCES: `file:${addressFile},url:${echoUrl}`,
    });
    for (const address of ['81.0.2.14', '81.0.2.15']) {
      writeFileSync(addressFile, `${address}\n`);
      await runDist(['update'], env);
    }
    seedOlderHistory(env.DDEDGE_STATE_DIR!);
    writeFileSync(addressFile, '81.0.2.16\n');
    daemon = startDist(['daemon', '--listen', '127.0.0.1:0'], env);
    const log = await waitForOutput(
      daemon,
      'stderr',
      (t) => /at (http:\S+)\/\n/.test(t) && /nas\.example\.com A set to 81\.0\.2\.16/.test(t),
    );
    url = /at (http:\S+)\/\n/.exec(log)![1]!;
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: 'shell',
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    daemon?.kill('SIGTERM');
    await daemon?.result;
    echo?.close();
  });

  const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

  it('light: no console error, nothing requested beyond the daemon, no serious accessibility violation', async () => {
    const { page, errors, requests } = await openPage(browser, url, 'light', { width: 1100, height: 900 });
    expect(await page.$eval('.overall', (e) => e.textContent)).toBe('1 of 3 records failing.');
    expect(await background(page)).toBe('rgb(255, 255, 255)');
    await page.evaluate(AXE);
    const violations = await page.evaluate(async () => {
      const result = await (
        globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string }[] }> } }
      ).axe.run();
      return result.violations.map((v) => ({ id: v.id, impact: v.impact }));
    });
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'status-page-light.png'), fullPage: true });
    expect(errors).toEqual([]);
    expect(requests.every((r) => r.startsWith(`${url}/`))).toBe(true);
    await page.close();
  });

  it('dark: the colours follow the system', async () => {
    const { page, errors } = await openPage(browser, url, 'dark', { width: 1100, height: 900 });
    expect(await background(page)).toBe('rgb(13, 17, 23)');
    await page.evaluate(AXE);
    const serious = await page.evaluate(async () => {
      const result = await (
        globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string }[] }> } }
      ).axe.run();
      return result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => JSON.stringify(v).slice(0, 1500));
    });
    expect(serious).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'status-page-dark.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a 360 px phone: the page does not scroll sideways (wide tables scroll inside their box), the button is a finger wide', async () => {
    const { page, errors } = await openPage(browser, url, 'light', { width: 360, height: 740, isMobile: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const button = await page.$eval('button', (b) => b.getBoundingClientRect().height);
    expect(button).toBeGreaterThanOrEqual(44);
    await page.screenshot({ path: join(SHOTS, 'status-page-phone.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('1280 px: a time in the history stays on one line', async () => {
    const { page, errors } = await openPage(browser, url, 'light', { width: 1280, height: 900 });
    // The lines a cell's text takes: the distinct tops of its text's rectangles.
    const lines = await page.$$eval('table.hist td:first-child', (cells) =>
      cells.map((cell) => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      }),
    );
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((n) => n > 1)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("phones from 320 to 430 px: a source's port is never split from its host, a short host never split", async () => {
    // The page as the daemon renders it, with sources as long as real ones (a resolver's name
    // and port, an IPv6 address and port), in the browser at every width: where a long source
    // breaks moves with the width, so one width alone may not land in the port.
    const page = await browser.newPage();
    const sources = [
      'dns:myip.opendns.com@resolver1.opendns.com:53',
      'dns-txt:o-o.myaddr.l.google.com@ns1.google.com:53',
      'url:https://[2001:db8:4860:4860::8888]:8443/what-is-my-address',
      `url:${echoUrl}`,
    ];
    const view: AgentPageView = {
      now: new Date().toISOString(),
      overall: { ok: true, text: 'All 1 record up to date.' },
      records: [],
      budget: { used: 1, limit: 60 },
      history: { rows: [], page: 1, pages: 1, total: 0 },
      timeline: { start: 0, end: 1, records: [] },
      problems: [],
      sources: [
        {
          family: 4,
          at: new Date().toISOString(),
          answers: sources.map((source) => ({ source, address: '81.0.2.16', ms: 12 })),
        },
      ],
    };
    // Mobile first: changing it later reloads the page, and a page set from text reloads empty.
    await page.setViewport({ width: 390, height: 840, isMobile: true, deviceScaleFactor: 1 });
    await page.setContent(renderAgentPage(view, { nonce: 'n', csrf: 'c' }), { waitUntil: 'load' });
    const splitAt = (width: number) =>
      page.$$eval(
        'table.src th[scope=row]',
        (cells, width) =>
          cells.flatMap((cell) => {
            const text = cell.textContent ?? '';
            const whole = /(\[[0-9a-f:]+\]|[\w.-]+):\d+/.exec(text);
            if (!whole) return [`${text}: no host and port`];
            // Up to 24 characters the host and port stay whole; past that, the port with the host's last character.
            const from = whole[0].length <= 24 ? whole.index : whole.index + whole[0].lastIndexOf(':') - 1;
            const match = { index: from, 0: text.slice(from, whole.index + whole[0].length) };
            const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
            const range = document.createRange();
            let offset = 0;
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              const length = node.textContent?.length ?? 0;
              if (match.index >= offset && match.index < offset + length) range.setStart(node, match.index - offset);
              const end = match.index + match[0].length;
              if (end > offset && end <= offset + length) range.setEnd(node, end - offset);
              offset += length;
            }
            const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            return tops.size > 1 ? [`${match[0]} on ${tops.size} lines at ${width} px`] : [];
          }),
        width,
      );
    const split: string[] = [];
    for (let width = 320; width <= 430; width += 2) {
      await page.setViewport({ width, height: 840, isMobile: true, deviceScaleFactor: 1 });
      split.push(...(await splitAt(width)));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
    expect(split).toEqual([]);
    await page.close();
  });

  it('"Update now" runs a cycle and the page then shows the new address', async () => {
    const { page, errors, requests } = await openPage(browser, url, 'light', { width: 1100, height: 900 });
    writeFileSync(addressFile, '81.0.2.17\n');
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('button')]);
    expect(page.url(), await page.content()).toBe(`${url}/?asked=1`);
    expect(await page.content()).toContain('A cycle was asked for');
    // The cycle runs after the answer: reload until it shows.
    let text = '';
    await waitUntil(
      async () => {
        await page.reload({ waitUntil: 'load' });
        text = await page.$eval('table', (t) => t.textContent ?? '');
        return text.includes('81.0.2.17');
      },
      'the new address on the page',
      { everyMs: 250 },
    );
    expect(text).toContain('81.0.2.17');
    expect(errors).toEqual([]);
    expect(requests.every((r) => r.startsWith(`${url}/`))).toBe(true);
    await page.close();
  });
});

describe.skipIf(!present)("the gateway's status page in Chromium", () => {
  const gatewaySandbox = useSandbox({ per: 'file' });
  let gateway: GatewayProcess | undefined;
  let gatewayUrl: string;
  let chromium: Browser;
  beforeAll(async () => {
    const dir = tempDir('ddedge-gw-browser-');
    const keysFile = join(dir, 'gateway.keys');
    const admin = keygenText('admin', 'hmac-sha256');
    const acme = keygenText('acme', 'hmac-sha256');
    writeFileSync(
      keysFile,
      `${admin}grant "admin" zonesub;\ntransfer "admin";\n${acme}grant "acme" name _acme-challenge.example.com TXT;\n`,
      { mode: 0o600 },
    );
    gateway = await startGatewayProcess({
      apiUrl: gatewaySandbox.url,
      zone: 'example.com',
      keysFile,
      stateDir: join(dir, 'state'),
      primaryName: null,
      args: ['--listen', '127.0.0.1:0'],
    });
    gatewayUrl = gateway.endpoint!;
    // An update and a refusal for the page to show, when nsupdate is here (bind9-dnsutils).
    const dnsPort = gateway.port;
    const nsupdate = (block: string, name: string, line: string) =>
      new Promise<void>((done) => {
        const secret = /secret "([^"]+)"/.exec(block)![1];
        const child = execFile(
          'nsupdate',
          ['-t', '8', '-y', `hmac-sha256:${name}:${secret}`],
          { timeout: 20_000 },
          () => done(),
        );
        child.on('error', () => done());
        child.stdin!.end(`server 127.0.0.1 ${dnsPort}\n${line}\nsend\n`);
      });
    await nsupdate(admin, 'admin', 'update add printer.example.com 300 A 192.0.2.44');
    await nsupdate(acme, 'acme', 'update add www.example.com 300 A 192.0.2.45');
    chromium = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: 'shell',
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await gateway?.stop();
  });

  for (const [scheme, viewport, shot] of [
    ['light', { width: 1100, height: 900 }, 'gateway-page-light.png'],
    ['dark', { width: 1100, height: 900 }, 'gateway-page-dark.png'],
    ['light', { width: 360, height: 740, isMobile: true }, 'gateway-page-phone.png'],
  ] as const) {
    it(`${shot}: no console error, nothing beyond the gateway, no serious accessibility violation, no sideways scroll`, async () => {
      const { page, errors, requests } = await openPage(chromium, gatewayUrl, scheme, viewport);
      // Open the first zone's records for the picture.
      await page.$eval('details', (d) => ((d as HTMLDetailsElement).open = true));
      await page.evaluate(AXE);
      const serious = await page.evaluate(async () => {
        const result = await (
          globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string }[] }> } }
        ).axe.run();
        return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
      });
      expect(serious).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await page.screenshot({ path: join(SHOTS, shot), fullPage: true });
      expect(errors).toEqual([]);
      expect(requests.every((r) => r.startsWith(`${gatewayUrl}/`))).toBe(true);
      await page.close();
    });
  }
});
