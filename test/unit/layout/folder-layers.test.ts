// The source tree's layers, checked: every import between folders runs downward. A folder may
// import from a folder in a lower tier, never from its own tier's neighbours or from above, so a
// fix in a helper cannot need a feature, and a feature cannot lean on a sibling feature (the ACME
// helper once imported the agent to compare two names). New folders must be placed in a tier
// here before anything can import them.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles, SRC } from '../../helpers/source-tree.js';

/** Bottom to top. Folders in one tier are peers: neither imports the other. */
const TIERS: readonly (readonly string[])[] = [
  ['lib'], // names, addresses, durations, redaction, files, errors, log, answer readers
  ['http', 'dns', 'state'], // transports; the DNS wire, client and server; state files and locks
  ['api', 'ip', 'notify', 'dyndns'], // the registrar SDK; address sources; notifications; dyndns client
  ['config', 'zone', 'sdk'], // the one settings table; zone as code; the SDK's public entry
  // hosts behind the router; hosts named by containers' labels (the engine's API and its events);
  // the emulator (imported by cli/ and tests only); the HTTP endpoint and status page, given its
  // answers and views by its caller
  ['lan', 'containers', 'sandbox', 'probe'],
  ['agent', 'acme', 'init'], // the capabilities that run cycles and challenges; set-up in one command
  ['gateway'], // RFC 2136, transfers, the dyndns2 door, DHCID
  ['cli'], // commands, parsing, output and exit codes
];

/** Inside a split folder its parts are layered too (bottom to top, peers in one tier). */
const INNER_TIERS: Record<string, readonly (readonly string[])[]> = {
  dns: [['wire'], ['client', 'server']],
  // the HTTP client's policy and transports; the hardened listener of every door
  http: [['.', 'server']],
  zone: [['.'], ['file'], ['plan'], ['provider'], ['apply']],
  // keys and the DHCID store; the limits, the journal and the zones as served; one UPDATE from
  // bytes to answer; the HTTP door's protocols (dyndns2; httpreq and acme-dns) and the status views; the
  // command's wiring at the root.
  gateway: [['keys', 'dhcid'], ['limits', 'journal', 'dns'], ['update'], ['dyndns2', 'acme-http', 'status'], ['.']],
};

/** Every import of the tree as [importing file, imported file], both relative to the tree's root. */
function importsIn(root: string): [string, string][] {
  return sourceFiles(root).flatMap((file) =>
    importsOf(file).map((target): [string, string] => [relative(root, file), relative(root, target)]),
  );
}

const tierOf = (tiers: readonly (readonly string[])[], part: string) => tiers.findIndex((t) => t.includes(part));
const topFolder = (path: string) => (path.includes('/') ? path.split('/')[0]! : '.');
const innerPart = (path: string) => {
  const parts = path.split('/');
  return parts.length > 2 ? parts[1]! : '.';
};

/** Each import that runs sideways or upward, as "from -> to (why)". */
function layerViolations(imports: [string, string][]): string[] {
  const found: string[] = [];
  for (const [from, to] of imports) {
    const a = topFolder(from);
    const b = topFolder(to);
    if (a !== b) {
      const ta = tierOf(TIERS, a);
      const tb = tierOf(TIERS, b);
      if (ta < 0 || tb < 0) found.push(`${from} -> ${to} (folder not placed in a tier)`);
      else if (tb >= ta) found.push(`${from} -> ${to} (${b} is not below ${a})`);
      continue;
    }
    const inner = INNER_TIERS[a];
    if (!inner) continue;
    const pa = innerPart(from);
    const pb = innerPart(to);
    if (pa === pb) continue;
    const ta = tierOf(inner, pa);
    const tb = tierOf(inner, pb);
    if (ta < 0 || tb < 0) found.push(`${from} -> ${to} (part not placed in ${a}'s tiers)`);
    else if (tb >= ta) found.push(`${from} -> ${to} (${a}/${pb} is not below ${a}/${pa})`);
  }
  return found;
}

describe('the layers of the source tree', () => {
  const imports = importsIn(SRC);

  it('places every folder of src/ in a tier', () => {
    const folders = readdirSync(SRC).filter((n) => statSync(join(SRC, n)).isDirectory());
    expect(folders.filter((f) => tierOf(TIERS, f) < 0)).toEqual([]);
  });

  it('runs every import between folders downward (no sideways, upward or circular imports)', () => {
    expect(layerViolations(imports)).toEqual([]);
  });

  it('keeps the bottom layer free of the rest: lib/ imports nothing of ours outside lib/', () => {
    expect(imports.filter(([from, to]) => from.startsWith('lib/') && !to.startsWith('lib/'))).toEqual([]);
  });

  it('keeps the emulator out of the product: only cli/ imports sandbox/', () => {
    const reaching = imports.filter(
      ([from, to]) => to.startsWith('sandbox/') && !from.startsWith('sandbox/') && !from.startsWith('cli/'),
    );
    expect(reaching).toEqual([]);
  });

  it('catches what it is meant to catch (the check itself can fail)', () => {
    expect(layerViolations([['dns/wire/message.ts', 'ip/address.ts']])).toEqual([
      'dns/wire/message.ts -> ip/address.ts (ip is not below dns)',
    ]);
    expect(layerViolations([['acme/challenge.ts', 'agent/via-api.ts']])).toHaveLength(1);
    expect(layerViolations([['config/config.ts', 'probe/listen-address.ts']])).toHaveLength(1);
    expect(layerViolations([['probe/server.ts', 'agent/endpoint-answers.ts']])).toEqual([
      'probe/server.ts -> agent/endpoint-answers.ts (agent is not below probe)',
    ]);
    expect(
      layerViolations([
        ['agent/endpoint.ts', 'probe/server.ts'],
        ['gateway/dyndns2/listener.ts', 'http/server/bounds.ts'],
      ]),
    ).toEqual([]);
    expect(layerViolations([['http/server/listen.ts', 'http/errors.ts']])).toHaveLength(1);
    expect(layerViolations([['zone/file/zone-files.ts', 'zone/plan/unwritable.ts']])).toHaveLength(1);
    expect(layerViolations([['dns/client/query.ts', 'dns/server/listener.ts']])).toHaveLength(1);
    expect(layerViolations([['text/redact.ts', 'lib/errors.ts']])).toEqual([
      'text/redact.ts -> lib/errors.ts (folder not placed in a tier)',
    ]);
    expect(
      layerViolations([
        ['gateway/run.ts', 'probe/server.ts'],
        ['zone/apply/apply.ts', 'zone/plan/plan.ts'],
      ]),
    ).toEqual([]);
    expect(layerViolations([['gateway/dhcid/rules.ts', 'gateway/update/message.ts']])).toHaveLength(1);
    expect(layerViolations([['gateway/update/batch.ts', 'gateway/status/stats.ts']])).toHaveLength(1);
    expect(layerViolations([['gateway/update/batch.ts', 'gateway/dhcid/store.ts']])).toEqual([]);
  });
});
