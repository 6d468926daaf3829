// BIND as the reference for RFC 2136: the same nsupdate scripts run against `named`
// (a primary zone with `update-policy { grant KEY zonesub ANY; }`) and against `ddedge gateway`
// in front of the sandbox, both seeded with the same records (the gateway's first AXFR is named's
// zone file). After each script the answer code nsupdate reports and the whole zone (AXFR with
// dig, canonicalised by named-compilezone) must be the same. The scripts run in order on both
// servers, each from the zone the scripts before it left; what each script changed (lines added
// and removed) is compared, so a divergence shows at its script and not at every one after it,
// and the whole zones are compared at the end. When knsupdate (Knot) is installed, each script
// also runs in its syntax against a second gateway and sandbox, with the same outcome expected.
// Not compared: the SOA (each server has its own serial) and the apex NS (the gateway keeps it
// for the provider and ignores updates of it; named changes it).
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server.js';
import type { TsigKey } from '../../../src/dns/wire/tsig.js';
import { keygenText } from '../../../src/gateway/keys/keygen.js';
import { udpExchange } from '../../helpers/dns-wire.js';
import { CLASS, outcome, rr, signed, TYPE, updateMessage } from '../../helpers/update-wire.js';
import { tempDir } from '../../helpers/cli.js';
import { dig, keyStatement, startNamed, type Named } from '../../helpers/named.js';
import { requireTool } from '../../helpers/programs.js';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/use-gateway.js';

const TOOLS =
  requireTool('named', 'bind9') &&
  requireTool('named-compilezone', 'bind9-utils') &&
  requireTool('nsupdate', 'bind9-dnsutils') &&
  requireTool('dig', 'bind9-dnsutils');

const ZONE = 'example.com';
/** Knot's knsupdate, when installed: the same scripts in its syntax, against a second gateway and sandbox. */
const KNOT = TOOLS && requireTool('knsupdate', 'knot-dnsutils');

interface Gateway {
  sandbox: Sandbox;
  process: GatewayProcess;
  port: number;
}
let gateway: Gateway;
let gatewayPort: number;
let knotGateway: Gateway | undefined;
const gatewayPorts = new Set<number>();
let named: Named;
let dir: string;
const keys: Record<'admin' | 'narrow' | 'xfr', { algorithm: string; secret: string; text: string }> = {} as never;

function makeKey(name: 'admin' | 'narrow' | 'xfr'): string {
  const text = keygenText(name);
  keys[name] = { algorithm: 'hmac-sha256', secret: /secret "([^"]+)"/.exec(text)![1]!, text };
  return text;
}

interface Outcome {
  /** What nsupdate reports: NOERROR, or the rcode of `update failed: RCODE`. */
  rcode: string;
  /** Lines of the zone the script added and removed. */
  added: string[];
  removed: string[];
}

type Client = 'nsupdate' | 'knsupdate';

/**
 * Runs a script signed with `key` (admin: the whole zone; narrow: home.example.com A only) against
 * the server on `port`, with nsupdate, or with knsupdate in its syntax (add, del; names absolute).
 */
function nsupdate(
  port: number,
  lines: string[],
  key: 'admin' | 'narrow' = 'admin',
  client: Client = 'nsupdate',
): Promise<{ rcode: string; out: string }> {
  const body =
    client === 'nsupdate'
      ? [`zone ${ZONE}`, ...lines]
      : [
          `zone ${ZONE}.`,
          'origin .',
          ...lines.map((l) => l.replace(/^update add /, 'add ').replace(/^update delete /, 'del ')),
        ];
  const script = [`server 127.0.0.1 ${port}`, ...body, 'send', ''].join('\n');
  const { algorithm, secret } = keys[key];
  return new Promise((resolve) => {
    const child = execFile(
      client,
      ['-t', '8', '-y', `${algorithm}:${key}:${secret}`],
      { timeout: 20_000 },
      (error, stdout, stderr) => {
        const out = stdout + stderr;
        // nsupdate: "update failed: NXDOMAIN"; knsupdate: "update failed with error 'NXDOMAIN'" (or the rcode in its report).
        const failed =
          /update failed: (\w+)/.exec(out) ??
          /\b(FORMERR|SERVFAIL|NXDOMAIN|NOTIMP|REFUSED|YXDOMAIN|YXRRSET|NXRRSET|NOTAUTH|NOTZONE)\b/.exec(out);
        resolve({
          rcode:
            failed && error
              ? failed[1]!
              : error
                ? `exit ${String((error as { code?: unknown }).code)}: ${out}`
                : 'NOERROR',
          out,
        });
      },
    );
    child.stdin!.end(script);
  });
}

/**
 * `update delete never-there.example.com A`, signed with the admin key, sent from this process: the same
 * message nsupdate sends, without a process start for each of the ~120 times.
 */
async function readAfresh(port: number): Promise<void> {
  const key: TsigKey = { name: 'admin', algorithm: 'hmac-sha256', secret: Buffer.from(keys.admin.secret, 'base64') };
  const message = signed(
    updateMessage({
      id: Math.floor(Math.random() * 0x10000),
      zone: ZONE,
      updates: [rr('never-there.example.com', TYPE.A, CLASS.ANY, 0)],
    }),
    key,
  );
  const { rcode } = outcome(await udpExchange(port, message, 20_000));
  if (rcode !== 0) throw new Error(`the update that reads the zone afresh was answered with rcode ${rcode}`);
}

/** The zone by AXFR, canonicalised by named-compilezone (full names, one form per type), sorted; no SOA, no apex NS. */
async function zoneOf(port: number): Promise<string[]> {
  const { algorithm, secret } = keys.xfr;
  const axfr = await dig(port, ['-y', `${algorithm}:xfr:${secret}`, ZONE, 'AXFR']);
  if (!/\sSOA\s/.test(axfr) || /Transfer failed|verify|failure/i.test(axfr))
    throw new Error(`AXFR from port ${port} failed:\n${axfr}`);
  const file = join(dir, `axfr-${port}.zone`);
  writeFileSync(
    file,
    axfr
      .split('\n')
      .filter((l) => !/\sTSIG\s/.test(l))
      .join('\n'),
  );
  // -k/-i/-M/-S ignore: named-compilezone as a canonicaliser, not a linter; warnings (a TTL that differs within an RRset) are kept and compared.
  const compiled = await new Promise<string>((resolve) =>
    execFile(
      'named-compilezone',
      ['-s', 'full', '-k', 'ignore', '-i', 'none', '-M', 'ignore', '-S', 'ignore', '-o', '-', ZONE, file],
      (_e, stdout, stderr) => resolve(stdout + stderr),
    ),
  );
  return (
    compiled
      .split('\n')
      // A warning names the line of the transfer it is about: the line number changes with the zone, the warning does not.
      .map((l) =>
        canonicalCase(
          l
            .split(file)
            .join('AXFR')
            .replace(/^AXFR:\d+: /, 'AXFR: ')
            .trim()
            .replace(/\s+/g, ' '),
        ),
      )
      .filter((l) => l && !/^OK$|^zone example\.com\/IN: loaded serial/.test(l))
      .filter((l) => !/^example\.com\. \d+ IN (SOA|NS) /.test(l) && !/ IN SOA /.test(l))
      .sort()
  );
}

/**
 * Names in lower case, as RFC 4034 section 6.2's canonical form writes them: named keeps a name
 * in the case it was first written (CaSe.Example.COM), the gateway in lower case, and DNS
 * compares names without case. TXT and CAA data keep theirs.
 */
function canonicalCase(line: string): string {
  const [owner, ttl, klass, type, ...data] = line.split(' ');
  if (!type || klass !== 'IN') return line;
  const names = ['CNAME', 'NS', 'MX', 'SRV'].includes(type);
  return [owner!.toLowerCase(), ttl, klass, type, ...(names ? data.map((d) => d.toLowerCase()) : data)].join(' ');
}

/** Runs a script on one server: its answer code and what it changed in the zone. */
/** Each server's zone after the last script run on it: the zone before the next (cleared by changes made outside `run`). */
const lastZone = new Map<number, string[]>();

async function run(
  port: number,
  lines: string[],
  key: 'admin' | 'narrow' = 'admin',
  client: Client = 'nsupdate',
): Promise<Outcome> {
  const before = lastZone.get(port) ?? (await zoneOf(port));
  const { rcode } = await nsupdate(port, lines, key, client);
  if (gatewayPorts.has(port)) {
    // The gateway answers AXFR from its view, which an update leaves as it computed it; an update that changes
    // nothing reads the zone afresh from the provider, so the zone compared is the one the provider holds.
    await readAfresh(port);
  }
  const after = await zoneOf(port);
  lastZone.set(port, after);
  return { rcode, added: after.filter((l) => !before.includes(l)), removed: before.filter((l) => !after.includes(l)) };
}

/** A sandbox and the built gateway in front of it, with the keys file at `keysFile`. */
async function startGateway(keysFile: string, stateDir: string): Promise<Gateway> {
  const sandbox = await startSandbox({});
  const gateway = await startGatewayProcess({ apiUrl: sandbox.url, zone: ZONE, keysFile, stateDir });
  gatewayPorts.add(gateway.port);
  return { sandbox, process: gateway, port: gateway.port };
}

async function stopGateway(g: Gateway | undefined): Promise<void> {
  if (!g) return;
  await g.process.stop();
  await g.sandbox.close();
}

beforeAll(async () => {
  if (!TOOLS) return;
  dir = tempDir('ddedge-bind-ref-');
  const keysFile = join(dir, 'gateway.keys');
  writeFileSync(
    keysFile,
    `${makeKey('admin')}grant "admin" zonesub;\n${makeKey('narrow')}grant "narrow" name home.example.com A;\n${makeKey('xfr')}transfer "xfr";\n`,
    { mode: 0o600 },
  );
  gateway = await startGateway(keysFile, join(dir, 'state'));
  gatewayPort = gateway.port;
  if (KNOT) knotGateway = await startGateway(keysFile, join(dir, 'state-knot'));
  // named's zone file is the gateway's first transfer: the same records, the same SOA names, the same apex NS.
  const { algorithm, secret } = keys.xfr;
  const seed = (await dig(gatewayPort, ['-y', `${algorithm}:xfr:${secret}`, ZONE, 'AXFR']))
    .split('\n')
    .filter((l) => !/\sTSIG\s/.test(l))
    .join('\n');
  named = await startNamed({
    files: { 'example.com.zone': seed },
    // check-names, check-integrity, check-mx and friends are BIND's lint, not RFC 2136: off, so the reference is the protocol.
    options:
      'check-names primary ignore; check-integrity no; check-mx ignore; check-srv-cname ignore; check-sibling no; check-wildcard no;',
    statements: `${keyStatement('admin', keys.admin.algorithm, keys.admin.secret)}${keyStatement('narrow', keys.narrow.algorithm, keys.narrow.secret)}${keyStatement('xfr', keys.xfr.algorithm, keys.xfr.secret)}
zone "${ZONE}" { type primary; file "example.com.zone"; update-policy { grant admin zonesub ANY; grant narrow name home.example.com A; }; allow-transfer { key xfr; }; };\n`,
    ready: [ZONE],
  });
}, 60_000);

afterAll(async () => {
  await named?.stop();
  await stopGateway(gateway);
  await stopGateway(knotGateway);
});

/** Each script, with what it shows. Types the provider holds only (A, AAAA, CNAME, MX, SRV, TXT, CAA, NS). */
const SCRIPTS: { what: string; lines: string[]; key?: 'narrow' }[] = [
  {
    what: 'several adds in one message, every type, a new name and existing ones',
    lines: [
      'update add a.example.com 300 A 192.0.2.1',
      'update add a.example.com 300 A 192.0.2.2',
      'update add a.example.com 300 AAAA 2001:db8::1',
      'update add a.example.com 300 TXT "hello world"',
      'update add mx.example.com 300 MX 10 mail.example.com.',
      'update add mx.example.com 300 MX 20 mail2.example.com.',
      'update add _sip._tcp.example.com 300 SRV 0 5 5060 sip.example.com.',
      'update add example.com 300 CAA 0 issue "letsencrypt.org"',
      'update add sub.example.com 300 NS ns1.example.net.',
    ],
  },
  {
    what: 'nxdomain passes at an unused name',
    lines: ['prereq nxdomain b.example.com', 'update add b.example.com 300 A 192.0.2.3'],
  },
  {
    what: 'nxdomain fails at a name in use (YXDOMAIN)',
    lines: ['prereq nxdomain a.example.com', 'update add z.example.com 300 A 192.0.2.4'],
  },
  {
    what: 'yxdomain passes at a name in use',
    lines: ['prereq yxdomain a.example.com', 'update add a.example.com 300 TXT "second"'],
  },
  {
    what: 'yxdomain fails at an unused name (NXDOMAIN)',
    lines: ['prereq yxdomain nothere.example.com', 'update add z.example.com 300 A 192.0.2.4'],
  },
  {
    what: 'yxrrset value-independent passes',
    lines: ['prereq yxrrset a.example.com AAAA', 'update add a.example.com 300 AAAA 2001:db8::2'],
  },
  {
    what: 'yxrrset value-independent fails (NXRRSET)',
    lines: ['prereq yxrrset a.example.com MX', 'update add z.example.com 300 A 192.0.2.4'],
  },
  {
    what: 'yxrrset value-dependent with one RR passes; replace the RRset',
    lines: [
      'prereq yxrrset home.example.com A 192.0.2.20',
      'update delete home.example.com A',
      'update add home.example.com 300 A 192.0.2.21',
    ],
  },
  {
    what: 'yxrrset value-dependent with one RR fails',
    lines: ['prereq yxrrset home.example.com A 192.0.2.20', 'update add z.example.com 300 A 192.0.2.4'],
  },
  {
    what: 'yxrrset value-dependent with several RRs passes',
    lines: [
      'prereq yxrrset a.example.com A 192.0.2.1',
      'prereq yxrrset a.example.com A 192.0.2.2',
      'update add c.example.com 300 A 192.0.2.5',
    ],
  },
  {
    what: 'yxrrset value-dependent naming fewer RRs than the RRset holds fails',
    lines: ['prereq yxrrset a.example.com A 192.0.2.1', 'update add z.example.com 300 A 192.0.2.4'],
  },
  {
    what: 'yxrrset value-dependent naming one RR more fails',
    lines: [
      'prereq yxrrset a.example.com A 192.0.2.1',
      'prereq yxrrset a.example.com A 192.0.2.2',
      'prereq yxrrset a.example.com A 192.0.2.9',
      'update add z.example.com 300 A 192.0.2.4',
    ],
  },
  {
    what: 'yxrrset value-dependent on MX: the preference is part of the value',
    lines: [
      'prereq yxrrset mx.example.com MX 10 mail.example.com.',
      'prereq yxrrset mx.example.com MX 30 mail2.example.com.',
      'update add z.example.com 300 A 192.0.2.4',
    ],
  },
  {
    what: 'nxrrset passes',
    lines: ['prereq nxrrset a.example.com MX', 'update add a.example.com 300 MX 10 mail.example.com.'],
  },
  {
    what: 'nxrrset fails (YXRRSET)',
    lines: ['prereq nxrrset a.example.com A', 'update add z.example.com 300 A 192.0.2.4'],
  },
  { what: 'delete an RRset', lines: ['update delete a.example.com TXT'] },
  { what: 'delete one RR', lines: ['update delete a.example.com AAAA 2001:db8::1'] },
  { what: 'delete every RRset at a name', lines: ['update delete b.example.com'] },
  {
    what: 'add a record that exists already (same TTL): nothing changes',
    lines: ['update add home.example.com 300 A 192.0.2.21'],
  },
  {
    what: 'a TTL change by add: the whole RRset takes the new TTL',
    lines: ['update add a.example.com 60 A 192.0.2.2'],
  },
  {
    what: 'a new record in an RRset with another TTL: the whole RRset takes the new TTL',
    lines: ['update add a.example.com 120 A 192.0.2.7'],
  },
  { what: 'a CNAME at a name with data is ignored', lines: ['update add a.example.com 300 CNAME example.com.'] },
  {
    what: 'data at a CNAME is ignored',
    lines: ['update add www.example.com 300 A 192.0.2.8', 'update add www.example.com 300 TXT "x"'],
  },
  { what: 'a CNAME at a CNAME replaces it', lines: ['update add www.example.com 300 CNAME a.example.com.'] },
  {
    what: 'MX with the same exchange and another preference is another record',
    lines: ['update add mx.example.com 300 MX 30 mail.example.com.'],
  },
  {
    what: 'delete one MX: only the one with that preference',
    lines: ['update delete mx.example.com MX 10 mail.example.com.'],
  },
  {
    what: 'deletes of what is not there change nothing',
    lines: [
      'update delete nothere.example.com A',
      'update delete a.example.com A 198.51.100.1',
      'update delete nothere.example.com',
      'update delete a.example.com SRV',
    ],
  },
  {
    what: 'a record outside the zone (NOTZONE) changes nothing',
    lines: ['update add c.example.com 300 A 192.0.2.55', 'update add x.example.org 300 A 192.0.2.1'],
  },
  {
    what: 'a failing prerequisite after passing ones (YXRRSET): nothing changes',
    lines: [
      'prereq yxdomain a.example.com',
      'prereq yxrrset a.example.com A',
      'prereq nxrrset a.example.com AAAA',
      'update add z.example.com 300 A 192.0.2.4',
    ],
  },
  {
    what: 'several updates in one message, in order: delete a CNAME, then data at its name',
    lines: [
      'update delete www.example.com CNAME',
      'update add www.example.com 300 A 192.0.2.80',
      'update add www.example.com 300 AAAA 2001:db8::80',
      'update delete c.example.com A 192.0.2.5',
      'update add c.example.com 300 TXT "moved"',
    ],
  },
  {
    what: 'an add then a delete of the same record in one message',
    lines: [
      'update add d.example.com 300 A 192.0.2.90',
      'update delete d.example.com A 192.0.2.90',
      'update add d.example.com 300 TXT "kept"',
    ],
  },
  {
    what: 'delete everything at the apex: SOA and NS stay; then a CNAME there is ignored (the apex holds SOA and NS)',
    lines: ['update delete example.com', 'update add example.com 300 CNAME www.example.org.'],
  },
  {
    what: 'a TXT with quotes and spaces, a CAA with its flag',
    lines: [
      'update add t.example.com 300 TXT "a \\"quoted\\" value; with semicolon"',
      'update add t.example.com 300 CAA 128 issuewild ";"',
    ],
  },
  {
    what: 'names in another case are the same names',
    lines: [
      'update add MiXeD.Example.COM 300 A 192.0.2.44',
      'update add www.example.com 300 AAAA 2001:DB8::80',
      'update delete MIXED.example.com A 192.0.2.44',
      'update add CaSe.example.com 300 CNAME WWW.Example.Com.',
    ],
  },
  {
    what: 'a delete of one CNAME by its target in another case',
    lines: ['update delete case.example.com CNAME www.EXAMPLE.com.'],
  },
  {
    what: 'SRV with another priority is another record; the same record twice in one message is one',
    lines: [
      'update add _sip._tcp.example.com 300 SRV 10 5 5060 sip.example.com.',
      'update add e.example.com 300 A 192.0.2.91',
      'update add e.example.com 300 A 192.0.2.91',
    ],
  },
  {
    what: 'delete one SRV: only the one with that priority',
    lines: ['update delete _sip._tcp.example.com SRV 0 5 5060 sip.example.com.'],
  },
  {
    what: 'an empty non-terminal is not a name in use: nxdomain passes',
    lines: ['prereq nxdomain _tcp.example.com', 'update add f.example.com 300 A 192.0.2.92'],
  },
  {
    what: 'an empty non-terminal is not a name in use: yxdomain fails',
    lines: ['prereq yxdomain _tcp.example.com', 'update add z.example.com 300 A 192.0.2.4'],
  },
  {
    what: 'the apex SOA and NS exist for prerequisites: yxrrset SOA passes',
    lines: [
      'prereq yxrrset example.com SOA',
      'prereq yxdomain example.com',
      'update add g.example.com 300 A 192.0.2.93',
    ],
  },
  {
    what: 'the apex SOA and NS exist for prerequisites: nxrrset NS fails',
    lines: ['prereq nxrrset example.com NS', 'update add z.example.com 300 A 192.0.2.4'],
  },
  {
    what: 'a delete of the SOA is ignored',
    lines: ['update delete example.com SOA', 'update add h.example.com 300 A 192.0.2.94'],
  },
  {
    what: 'prerequisites are taken in order: a failing one before one outside the zone decides',
    lines: [
      'prereq yxdomain nothere.example.com',
      'prereq yxdomain x.example.org',
      'update add z.example.com 300 A 192.0.2.4',
    ],
  },
  {
    what: 'a failing prerequisite decides before an update outside the zone',
    lines: ['prereq nxdomain a.example.com', 'update add x.example.org 300 A 192.0.2.1'],
  },
  {
    what: 'an add at the TTL the provider gives by default changes no TTL',
    lines: ['update add example.com 300 MX 20 mail2.example.com.'],
  },
  {
    what: 'an add with another TTL to an RRset at the provider default TTL',
    lines: ['update add example.com 600 TXT "second"'],
  },
  {
    what: 'a wildcard name, added and deleted',
    lines: [
      'update add *.wild.example.com 300 A 192.0.2.96',
      'update add *.wild.example.com 300 TXT "w"',
      'update delete *.wild.example.com TXT',
    ],
  },
  {
    what: 'TTL 0 and the largest TTL',
    lines: ['update add ttl0.example.com 0 A 192.0.2.97', 'update add ttlmax.example.com 2147483647 A 192.0.2.98'],
  },
  {
    what: 'an empty TXT and one with bytes beyond ASCII',
    lines: ['update add empty.example.com 300 TXT ""', 'update add utf8.example.com 300 TXT "caf\\195\\169"'],
  },
  {
    what: 'a key held to home.example.com A: what it may do, it does',
    key: 'narrow',
    lines: [
      'prereq yxrrset home.example.com A',
      'update delete home.example.com A',
      'update add home.example.com 300 A 192.0.2.22',
    ],
  },
  {
    what: 'a key held to home.example.com A: a change elsewhere is REFUSED before any prerequisite is looked at',
    key: 'narrow',
    lines: ['prereq nxdomain a.example.com', 'update add www2.example.com 300 A 192.0.2.1'],
  },
  {
    what: 'a key held to home.example.com A: another type there is REFUSED',
    key: 'narrow',
    lines: ['update add home.example.com 300 TXT "no"'],
  },
  { what: 'another type at home.example.com, by the admin key', lines: ['update add home.example.com 300 TXT "also"'] },
  {
    what: 'a key held to home.example.com A: a delete of every type there, where a TXT is too, is REFUSED',
    key: 'narrow',
    lines: ['update delete home.example.com'],
  },
  { what: 'the TXT gone again, by the admin key', lines: ['update delete home.example.com TXT'] },
  {
    what: 'a key held to home.example.com A: a delete of every type there, where only A is, is taken',
    key: 'narrow',
    lines: ['update delete home.example.com'],
  },
  {
    what: 'a key held to home.example.com A: a delete of every type at a name where nothing is deletes nothing (NOERROR, as BIND)',
    key: 'narrow',
    lines: ['update delete nothing.example.com'],
  },
  {
    what: 'a prerequisite outside the zone after passing ones (NOTZONE)',
    lines: [
      'prereq yxdomain a.example.com',
      'prereq nxdomain x.example.org',
      'update add z.example.com 300 A 192.0.2.4',
    ],
  },
  {
    what: 'an NS at a CNAME is ignored; records below a delegation are taken',
    lines: [
      'update add case2.example.com 300 CNAME www.example.com.',
      'update add case2.example.com 300 NS ns1.example.net.',
      'update add ns1.sub.example.com 300 A 192.0.2.95',
    ],
  },
];

/**
 * Where the gateway cannot do what BIND does because of the provider; docs/gateway.md
 * names each. `ours` is what the gateway's zone gains instead of what named's gains.
 */
const DIFFERENCES: { what: string; lines: string[]; ours: string[] }[] = [
  {
    what: 'a TXT of several strings: the provider holds one text, so the strings are joined (and split again only past 255 bytes)',
    lines: ['update add multi.example.com 300 TXT "first" "second"'],
    ours: ['multi.example.com. 300 IN TXT "firstsecond"'],
  },
];

describe.skipIf(!TOOLS)('the gateway against BIND named, script by script', () => {
  it('starts from the same zone', async () => {
    expect(await zoneOf(gatewayPort)).toEqual(await zoneOf(named.port));
  });

  for (const [i, script] of SCRIPTS.entries()) {
    it(`${i + 1}. ${script.what}`, async () => {
      // The servers are independent: each runs the script at the same time. The knsupdate run is the same script in
      // knsupdate's syntax against the second gateway, which has seen the same scripts before it.
      const [reference, ours, knot] = await Promise.all([
        run(named.port, script.lines, script.key),
        run(gatewayPort, script.lines, script.key),
        knotGateway ? run(knotGateway.port, script.lines, script.key, 'knsupdate') : undefined,
      ]);
      expect(ours.rcode, 'the answer code').toBe(reference.rcode);
      expect({ added: ours.added, removed: ours.removed }, 'what the script changed').toEqual({
        added: reference.added,
        removed: reference.removed,
      });
      if (knot) expect(knot, 'knsupdate against the gateway').toEqual(reference);
    });
  }

  for (const difference of DIFFERENCES) {
    it(`differs where the provider does: ${difference.what}`, async () => {
      const reference = await run(named.port, difference.lines);
      const ours = await run(gatewayPort, difference.lines);
      expect(ours.rcode).toBe(reference.rcode);
      expect(ours.added).toEqual(difference.ours);
      expect(ours.added).not.toEqual(reference.added);
      // Taken out of named's zone again (as named holds it), so that the zones can be compared at the end.
      await nsupdate(
        named.port,
        difference.lines.map((l) => l.replace(/^update add (\S+) \d+ (\S+) .*$/, 'update delete $1 $2')),
      );
      await nsupdate(
        gatewayPort,
        difference.lines.map((l) => l.replace(/^update add (\S+) \d+ (\S+) .*$/, 'update delete $1 $2')),
      );
      lastZone.clear();
    });
  }

  it('differs where the provider does: an update of the apex NS is ignored (the provider keeps it); named takes it', async () => {
    const lines = ['update add example.com 300 NS ns2.example.net.'];
    const reference = await nsupdate(named.port, lines);
    const ours = await nsupdate(gatewayPort, lines);
    expect([ours.rcode, reference.rcode]).toEqual(['NOERROR', 'NOERROR']);
    expect(await dig(named.port, ['+short', ZONE, 'NS'])).toMatch(/ns2\.example\.net\./);
    expect(await dig(gatewayPort, ['+short', ZONE, 'NS'])).not.toMatch(/ns2\.example\.net\./);
    await nsupdate(named.port, ['update delete example.com NS ns2.example.net.']);
    lastZone.clear();
  });

  it('differs where the provider does: a type it cannot hold (PTR) is REFUSED; named takes it', async () => {
    const lines = ['update add ptr.example.com 300 PTR host.example.com.'];
    const reference = await run(named.port, lines);
    const ours = await run(gatewayPort, lines);
    expect([ours.rcode, reference.rcode]).toEqual(['REFUSED', 'NOERROR']);
    expect(ours.added).toEqual([]);
    await nsupdate(named.port, ['update delete ptr.example.com PTR']);
    lastZone.clear();
  });

  it('ends with the same zone', async () => {
    expect(await zoneOf(gatewayPort)).toEqual(await zoneOf(named.port));
  });
});
