// A DNS tool that was not written here: BIND's dig (Debian bind9-dnsutils) against the built
// `ddedge sandbox --dns-port`, run as a user would. dig must see what service/dnslist holds,
// for every type, the negative answers with their SOA, a long TXT over UDP (truncated) and
// then TCP, and API changes at once (`ddedge ip`'s DNS sources against it: sandbox-dns.test.ts). Skipped without dig, unless DDEDGE_REQUIRE_TOOLS is set.
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, runDist, startDist, waitForOutput } from '../../helpers/cli.js';
import { requireTool } from '../../helpers/programs.js';

const DIG = requireTool('dig', 'bind9-dnsutils');

interface Running {
  child: ReturnType<typeof startDist>;
  apiUrl: string;
  dnsPort: number;
}
let sandbox: Running;

const LONG_TXT = `long=${'0123456789'.repeat(60)}`.slice(0, 600);

/** The registrar API over HTTP, for setting up (quicker than a process per call). */
async function post(action: string, fields: Record<string, string>): Promise<Record<string, unknown>> {
  const body = new URLSearchParams({
    apiuser: 'demo-user',
    apipasswd: 'demo-api-password',
    serviceName: 'example.com',
    ...fields,
  });
  const answer = (await (await fetch(`${sandbox.apiUrl}/service/${action}/`, { method: 'POST', body })).json()) as {
    success: boolean;
    responseData: Record<string, unknown>;
  };
  expect(answer.success, JSON.stringify(answer)).toBe(true);
  return answer.responseData;
}
/** `ddedge api service …`, as a user changes the zone. */
const api = (...args: string[]) =>
  runDist(
    ['api', 'service', ...args],
    baseEnv({ DDEDGE_API_URL: sandbox.apiUrl, DDEDGE_API_USER: 'demo-user', DDEDGE_API_PASSWORD: 'demo-api-password' }),
  );

function dig(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      'dig',
      ['@127.0.0.1', '-p', String(sandbox.dnsPort), '+norec', '+time=5', '+tries=1', ...args],
      { timeout: 10_000 },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    ),
  );
}
/** The answer section as `name TYPE value` lines (TTL and class left out). */
async function answers(name: string, type: string, ...options: string[]): Promise<string[]> {
  const text = await dig('+noall', '+answer', ...options, name, type);
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [owner, , , rrtype, ...rest] = line.split(/\s+/);
      return `${owner} ${rrtype} ${rest.join(' ')}`;
    });
}

/** How dig prints the value of a service/dnslist entry. */
function digForm(entry: { type: string; value: string; priority: string }): string {
  const dot = (name: string) => `${name.replace(/\.$/, '')}.`;
  switch (entry.type) {
    case 'CNAME':
    case 'NS':
      return dot(entry.value);
    case 'MX':
      return `${entry.priority} ${dot(entry.value)}`;
    case 'SRV': {
      const [weight, port, target] = entry.value.split(' ');
      return `${entry.priority} ${weight} ${port} ${dot(target!)}`;
    }
    case 'TXT':
      return (entry.value.match(/.{1,255}/g) ?? ['']).map((s) => `"${s}"`).join(' ');
    default:
      return entry.value;
  }
}

describe.skipIf(!DIG)("dig against the sandbox's name server", () => {
  beforeAll(async () => {
    const child = startDist(['sandbox', '--port', '0', '--dns-port', '0', '--json'], baseEnv());
    const line = await waitForOutput(child, 'stdout', (t) => t.includes('\n'));
    const started = JSON.parse(line) as { apiUrl: string; dnsPort: number };
    expect(started.dnsPort).toBeGreaterThan(0);
    sandbox = { child, apiUrl: started.apiUrl, dnsPort: started.dnsPort };
    for (const [name, type, value, priority] of [
      ['example.com', 'AAAA', '2001:db8::10'],
      ['_sip._tcp', 'SRV', '5 5060 sip.example.com', '20'],
      ['example.com', 'CAA', '0 issue "letsencrypt.org"'],
      ['lab', 'NS', 'ns.lab-provider.net'],
      ['long', 'TXT', LONG_TXT],
    ] as const) {
      await post('dnscreate', { name, type, value, ...(priority ? { priority } : {}) });
    }
  });
  afterAll(async () => {
    if (!sandbox) return;
    sandbox.child.kill('SIGTERM');
    expect((await sandbox.child.result).code).toBe(0);
  });

  it('sees every entry of service/dnslist, for every type', async () => {
    const entries = (await post('dnslist', {})).dns as {
      name: string;
      type: string;
      value: string;
      priority: string;
    }[];
    expect(new Set(entries.map((e) => e.type))).toEqual(
      new Set(['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'SRV', 'CAA', 'NS']),
    );
    for (const entry of entries) {
      // A CNAME's owner answers any type with the CNAME (dig then shows the chain): ask for it by its own type.
      // +authority: an NS entry below the apex is a delegation, answered as a referral.
      const lines = await answers(
        entry.name,
        entry.type,
        '+authority',
        entry.type === 'TXT' && entry.value.length > 255 ? '+tcp' : '+notcp',
      );
      expect(lines, `${entry.name} ${entry.type}`).toContain(`${entry.name}. ${entry.type} ${digForm(entry)}`);
    }
    expect(await answers('example.com', 'SOA')).toEqual([
      expect.stringMatching(
        /^example\.com\. SOA ns1\.example\.com\. hostmaster\.example\.com\. \d+ 3600 600 604800 60$/,
      ),
    ]);
    // lab.example.com has its own NS entry (a delegation: dig sees a referral, no aa); the apex keeps the sandbox's.
    expect(await answers('example.com', 'NS')).toEqual(['example.com. NS ns1.example.com.']);
    const referral = await dig('+noall', '+comments', '+authority', 'www.lab.example.com', 'A');
    expect(referral).toMatch(/flags: qr;/);
    expect(referral).toMatch(/^lab\.example\.com\.\s+300\s+IN\s+NS\s+ns\.lab-provider\.net\.$/m);
  });

  it("answers NXDOMAIN and NODATA with the zone's SOA in the authority section, as authoritative", async () => {
    const nx = await dig('+noall', '+comments', '+authority', 'nope.example.com', 'A');
    expect(nx).toMatch(/status: NXDOMAIN/);
    expect(nx).toMatch(/flags: qr aa;/);
    expect(nx).toMatch(/^example\.com\.\s+60\s+IN\s+SOA\s+ns1\.example\.com\. hostmaster\.example\.com\./m);
    const nodata = await dig('+noall', '+comments', '+authority', '+answer', 'home.example.com', 'AAAA');
    expect(nodata).toMatch(/status: NOERROR/);
    expect(nodata).toMatch(/ANSWER: 0, AUTHORITY: 1/);
    expect(nodata).toMatch(/^example\.com\.\s+60\s+IN\s+SOA\s/m);
    expect(await dig('+noall', '+comments', 'example.org', 'A')).toMatch(/status: REFUSED/);
  });

  it('truncates a 600-byte TXT over UDP (tc), and dig gets it over TCP', async () => {
    const udp = await dig('+noedns', '+ignore', '+notcp', 'long.example.com', 'TXT');
    expect(udp).toMatch(/flags: qr aa tc;/);
    expect(udp).toMatch(/ANSWER: 0/);
    const retried = await dig('+noedns', '+noall', '+answer', '+comments', 'long.example.com', 'TXT');
    expect(retried).toMatch(/Truncated, retrying in TCP mode/);
    const strings = /TXT\s+(.*)$/m
      .exec(retried)![1]!
      .match(/"([^"]*)"/g)!
      .map((s) => s.slice(1, -1));
    expect(strings.map((s) => s.length)).toEqual([255, 255, 90]);
    expect(strings.join('')).toBe(LONG_TXT);
  });

  it('shows a change made through the API at once', async () => {
    expect(await answers('_acme-challenge.example.com', 'TXT')).toEqual([]);
    expect(
      (
        await api(
          'dnscreate',
          '--serviceName',
          'example.com',
          '--name',
          '_acme-challenge',
          '--type',
          'TXT',
          '--value',
          'first-token',
        )
      ).code,
    ).toBe(0);
    expect(
      (
        await api(
          'dnscreate',
          '--serviceName',
          'example.com',
          '--name',
          '_acme-challenge',
          '--type',
          'TXT',
          '--value',
          'second-token',
        )
      ).code,
    ).toBe(0);
    expect((await answers('_acme-challenge.example.com', 'TXT')).sort()).toEqual([
      '_acme-challenge.example.com. TXT "first-token"',
      '_acme-challenge.example.com. TXT "second-token"',
    ]);
  });
});
