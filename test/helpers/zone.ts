// Shared by the zone tests: a sandbox service with an empty zone, ddedge zone run in-process
// or as the built file, and the third-party programs (BIND's) that check what ddedge writes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/io.js';
import type { SandboxService } from '../../src/sandbox/model.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { withApi } from './agent-env.js';
import { tempDir } from './cli.js';

/** A hosting service on the largest plan, with nothing in its zone. */
export function emptyZone(sandbox: Sandbox, name: string): SandboxService {
  sandbox.model.services = sandbox.model.services.filter((s) => s.name !== name);
  const service: SandboxService = {
    name,
    type: 'Hosting Corporate',
    productkey: 'corporate',
    status: 'active',
    tsCreate: '2026-01-01',
    tsExpir: '2027-01-01',
    renewalMode: 'autorenew',
    php: { enabled: true, version: '8.2' },
    parking: false,
    ftp: [],
    ddbb: [],
    subdomain: [],
    redirect: [],
    mail: [],
    mailalias: [],
    dns: [],
  };
  sandbox.model.services.push(service);
  return service;
}

/** Adds entries to `service`'s zone as the API keeps them (TTL and priority as text, `-` for the provider's default). */
export const entryAdder =
  (service: SandboxService) =>
  (id: string, name: string, type: string, value: string, ttl = '-', priority = '-'): void => {
    service.dns.push({ entityID: id, name, type, ttl, priority, value });
  };

export interface ZoneRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** ddedge main() in this process, with the sandbox's credentials and the given state dir. */
export async function zoneMain(sandbox: Sandbox, args: string[], env: Record<string, string> = {}): Promise<ZoneRun> {
  const out = { stdout: '', stderr: '' };
  const io: Io = {
    stdout: (t) => {
      out.stdout += t;
    },
    stderr: (t) => {
      out.stderr += t;
    },
    env: { ...withApi(sandbox), HOME: tempDir('ddedge-home-'), ...env },
    cwd: tempDir('ddedge-cwd-'),
    isTTY: false,
  };
  const code = await main(['zone', ...args], io);
  return { code, ...out };
}

export function writeZone(text: string, name = 'zone.txt'): string {
  const path = join(tempDir('ddedge-zone-'), name);
  writeFileSync(path, text);
  return path;
}

/** What the provider keeps beside the zone's entries; named-checkzone needs them. */
export const soaAndNs = (zone: string): string =>
  `$ORIGIN ${zone}.\n$TTL 3600\n@ IN SOA ns1.dondominio.com. hostmaster.${zone}. 1 3600 600 86400 300\n@ IN NS ns1.dondominio.com.\n@ IN NS ns2.dondominio.com.\n`;
