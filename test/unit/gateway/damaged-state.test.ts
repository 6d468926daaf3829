// A damaged owners ledger or serials file (one stray byte) is said and set aside as
// <file>.damaged, never read as empty and then written over: another gateway's zones in it
// stay for a person to look at, and no zone's serial goes back.
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OwnersLedger } from '../../../src/gateway/limits/key-quotas.js';
import { SerialStore } from '../../../src/gateway/dns/serial-store.js';
import type { Logger } from '../../../src/lib/log.js';
import { tempDir } from '../../helpers/cli.js';

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    warnings,
    error: (m: string) => warnings.push(m),
    warn: (m: string) => warnings.push(m),
    info() {},
    debug() {},
  };
}

function gatewayDir(): { state: string; dir: string } {
  const state = tempDir('ddedge-damaged-');
  const dir = join(state, 'gateway');
  mkdirSync(dir, { recursive: true });
  return { state, dir };
}

const create = (name: string) => ({
  action: 'create' as const,
  after: { name, type: 'A' as const, value: '192.0.2.1', ttl: 300 },
});

describe('a damaged owners.json', () => {
  const damaged = '{"version":1,"zones":{"other.org":[["a.other.org","A","81.0.2.1","k"]]}}x';

  it('is said and set aside at open, not overwritten at the next write', () => {
    const { state, dir } = gatewayDir();
    writeFileSync(join(dir, 'owners.json'), damaged);
    const logger = recordingLogger();
    const ledger = OwnersLedger.open(state, logger);
    expect(logger.warnings.join('\n')).toMatch(
      /owners\.json is damaged \(not valid JSON at position \d+\); set aside as .*owners\.json\.damaged; the records it named count against no key/,
    );
    expect(readFileSync(join(dir, 'owners.json.damaged'), 'utf8')).toBe(damaged);
    ledger.record('example.com', [{ key: 'router', changes: [create('e.example.com')] }]);
    expect(readFileSync(join(dir, 'owners.json.damaged'), 'utf8')).toBe(damaged);
    expect(JSON.parse(readFileSync(join(dir, 'owners.json'), 'utf8'))).toEqual({
      version: 1,
      zones: { 'example.com': [['e.example.com', 'A', '192.0.2.1', 'router']] },
    });
  });

  it('damaged by another writer after the open: set aside before this gateway writes its zone', () => {
    const { state, dir } = gatewayDir();
    const logger = recordingLogger();
    const ledger = OwnersLedger.open(state, logger);
    writeFileSync(join(dir, 'owners.json'), damaged);
    ledger.record('example.com', [{ key: 'router', changes: [create('e.example.com')] }]);
    expect(logger.warnings.join('\n')).toMatch(
      /owners\.json is damaged .*set aside as .*owners\.json\.damaged; it is written again with the zones of this gateway only/,
    );
    expect(readFileSync(join(dir, 'owners.json.damaged'), 'utf8')).toBe(damaged);
  });
});

describe('a damaged serials.json', () => {
  it('is set aside; the serials still legible in it are kept, so none goes back', () => {
    const { state, dir } = gatewayDir();
    const damaged =
      '{"example.com":{"serial":4000000000,"digest":"aa"},"other.org":{"serial":1800000000,"digest":"bb"}\u0000';
    writeFileSync(join(dir, 'serials.json'), damaged);
    const logger = recordingLogger();
    const store = SerialStore.open(state, logger);
    expect(logger.warnings.join('\n')).toMatch(
      /serials\.json is damaged \(not valid JSON.*\); set aside as .*serials\.json\.damaged; the serials of 2 zones still legible in it are kept/,
    );
    expect(readFileSync(join(dir, 'serials.json.damaged'), 'utf8')).toBe(damaged);
    // No digest: the content is never taken for the one served, the next serial is past this one.
    expect(store.get('example.com')).toEqual({ serial: 4_000_000_000, digest: '' });
    store.set('example.com', { serial: 4_000_000_001, digest: 'cc' });
    // The other gateway's zone is written again with its serial, not dropped.
    expect(JSON.parse(readFileSync(join(dir, 'serials.json'), 'utf8'))).toEqual({
      'example.com': { serial: 4_000_000_001, digest: 'cc' },
      'other.org': { serial: 1_800_000_000, digest: '' },
    });
  });

  it('damaged by another writer after the open: its legible serials are kept in the next write', () => {
    const { state, dir } = gatewayDir();
    const store = SerialStore.open(state, recordingLogger());
    writeFileSync(join(dir, 'serials.json'), '{"other.org":{"serial":1800000000,"digest":"bb"},,');
    store.set('example.com', { serial: 5, digest: 'cc' });
    expect(existsSync(join(dir, 'serials.json.damaged'))).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'serials.json'), 'utf8'))).toEqual({
      'example.com': { serial: 5, digest: 'cc' },
      'other.org': { serial: 1_800_000_000, digest: '' },
    });
  });
});
