// The gateway's status page at / of its --listen: zones with their records as it serves them,
// keys by name with what each may change (never a secret), an update nsupdate made (from the
// journal) and one it refused, under the same CSP as the agent's page.
import { execFile } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '../../helpers/programs.js';
import { useGateway, waitFor } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const TOOLS = requireTool('nsupdate', 'bind9-dnsutils');
let secondary: Socket;

function nsupdate(dnsPort: number, keyArg: string, lines: string[]): Promise<number> {
  const script = [`server 127.0.0.1 ${dnsPort}`, ...lines, 'send', ''].join('\n');
  return new Promise((resolve) => {
    const child = execFile('nsupdate', ['-t', '8', '-y', keyArg], { timeout: 20_000 }, (error) =>
      resolve(error ? 1 : 0),
    );
    child.stdin!.end(script);
  });
}

describe.skipIf(!TOOLS)('the gateway status page', () => {
  beforeAll(async () => {
    // A secondary that acknowledges every NOTIFY: the same ID, QR set, opcode NOTIFY (RFC 1996 section 4.7).
    secondary = createSocket('udp4');
    secondary.on('message', (packet, peer) => {
      const ack = Buffer.from(packet.subarray(0, 12));
      ack[2] = ack[2]! | 0x80;
      ack.fill(0, 4, 12);
      secondary.send(ack, peer.port, peer.address);
    });
    await new Promise<void>((r) => secondary.bind(0, '127.0.0.1', r));
  });
  const sandbox = useSandbox({ per: 'file' });
  const gateway = useGateway(() => ({
    apiUrl: sandbox.url,
    primaryName: null,
    args: ['--listen', '127.0.0.1:0', '--notify', `127.0.0.1:${secondary.address().port}`],
    keys: [
      { name: 'admin', rules: ['grant "admin" zonesub;', 'transfer "admin";'] },
      { name: 'acme', rules: ['grant "acme" name _acme-challenge.example.com TXT;'] },
    ],
  }));
  const url = () => gateway.endpoint!;
  beforeAll(async () => {
    expect(
      await nsupdate(gateway.port, gateway.nsupdateKey('admin'), ['update add page.example.com 120 A 192.0.2.77']),
    ).toBe(0);
    expect(
      await nsupdate(gateway.port, gateway.nsupdateKey('acme'), ['update add www2.example.com 120 A 192.0.2.78']),
    ).not.toBe(0);
  });
  afterAll(async () => {
    secondary?.close();
    await gateway.stop();
  });

  it('shows zones, records, keys and their rights, the update and the refusal; never a secret', async () => {
    const res = await fetch(`${url()}/`);
    expect(res.status).toBe(200);
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy')!)![1]!;
    const html = await res.text();
    expect(html.match(/<(style|script)\b[^>]*>/g)).toEqual([`<style nonce="${nonce}">`, `<script nonce="${nonce}">`]);
    expect(html).toContain('<h1>ddedge: DNS gateway status</h1>');
    expect(html).toMatch(/<h3 id="zone-0">example\.com<\/h3>/);
    expect(html).toMatch(
      /<tr><th scope="row">home\.example\.com<\/th><td data-label="Type">A<\/td><td data-label="TTL">\d+<\/td><td class="addr" data-label="Value">192\.0\.2\.20<\/td><\/tr>/,
    );
    expect(html).toMatch(
      /<th scope="row">acme<\/th><td data-label="May change">name _acme-challenge\.example\.com: TXT<\/td><td data-label="Zone transfer">no<\/td>/,
    );
    expect(html).toMatch(
      /<th scope="row">admin<\/th><td data-label="May change">zonesub: every type<\/td><td data-label="Zone transfer">yes<\/td>/,
    );
    expect(html).toMatch(
      /<th scope="row">admin<\/th><td data-label="Client">127\.0\.0\.1[^<]*<\/td><td data-label="Zone">example\.com<\/td><td data-label="Changes">create page\.example\.com A/,
    );
    // Once: the journal brackets the write with an intent line and a result line, and the page shows the result.
    expect(html.match(/create page\.example\.com A/g)).toHaveLength(1);
    expect(html).toMatch(
      /update zone example\.com, key acme, from 127\.0\.0\.1[^<]*<\/th><td data-label="Answer">REFUSED<\/td>/,
    );
    for (const secret of ['admin', 'acme'].map((name) => gateway.secret(name))) expect(html).not.toContain(secret);
    expect(html).not.toContain('demo-api-password');
    expect(html).toContain('<button type="submit">Read the zones again now</button>');
  });

  it('"read the zones again now" re-reads them at once (not at the next --refresh); a cross-site or forged form is refused', async () => {
    const html = await (await fetch(`${url()}/`)).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)![1]!;
    const post = (origin: string, form: string) =>
      fetch(`${url()}/update-now`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
      });
    // Made at the provider behind the gateway's back; --refresh is its default of 60 s.
    sandbox.model.services
      .find((s) => s.name === 'example.com')!
      .dns.push({
        entityID: '720001',
        name: 'pressed.example.com',
        type: 'TXT',
        ttl: '300',
        priority: '-',
        value: 'seen after the button',
      });
    expect((await post('http://evil.example', `csrf=${encodeURIComponent(csrf)}`)).status).toBe(403);
    expect((await post(url(), 'csrf=forged')).status).toBe(403);
    expect(await (await fetch(`${url()}/`)).text()).not.toContain('pressed.example.com');
    const res = await post(url(), `csrf=${encodeURIComponent(csrf)}`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/?asked=1');
    let after = '';
    await waitFor(async () => {
      after = await (await fetch(`${url()}/?asked=1`)).text();
      return after.includes('pressed.example.com');
    }, 'the page to show the zone read again');
    expect(after).toContain('The zones are being read again');
    expect(after).toMatch(/<th scope="row">pressed\.example\.com<\/th><td data-label="Type">TXT<\/td>/);
  });

  it('shows each secondary: its last NOTIFY (serial, acknowledged) and its last zone transfer', async () => {
    const before = await (await fetch(`${url()}/`)).text();
    expect(before).toContain('<h2 id="secondaries">Secondaries</h2>');
    const code = await new Promise<number>((resolve) =>
      execFile(
        'dig',
        ['+tcp', '-p', String(gateway.port), '-y', gateway.nsupdateKey('admin'), '@127.0.0.1', 'example.com', 'AXFR'],
        { timeout: 20_000 },
        (error) => resolve(error ? 1 : 0),
      ),
    );
    expect(code).toBe(0);
    let html = '';
    await waitFor(async () => {
      html = await (await fetch(`${url()}/`)).text();
      return /acknowledged.*AXFR/.test(html);
    }, 'the page to show the NOTIFY acknowledged and the transfer');
    const port = secondary.address().port;
    expect(html).toMatch(
      new RegExp(
        `<th scope="row">127\\.0\\.0\\.1:${port}</th><td data-label="Zone">example\\.com</td><td data-label="Last NOTIFY"><time[^>]*>[^<]+</time>, serial \\d+, acknowledged</td><td data-label="Last transfer"><time[^>]*>[^<]+</time>, AXFR</td>`,
      ),
    );
  });

  it('asked for by another name without --listen-token, it is refused', async () => {
    const { port } = new URL(url());
    const net = await import('node:net');
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      const socket = net.connect(Number(port), '127.0.0.1', () =>
        socket.write(`GET / HTTP/1.1\r\nhost: evil.example:${port}\r\nconnection: close\r\n\r\n`),
      );
      socket.on('data', (d) => (text += d));
      socket.on('close', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 403 /);
  });
});
