// The records the agent and ddedge acme keep: a key may change them only with a grant naming
// them exactly; read afresh from the state directory at each update.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keptRecords } from '../../../../src/gateway/keys/kept-records.js';
import { parseKeysFile } from '../../../../src/gateway/keys/keys-file.js';
import { updateAcmeChallenges } from '../../../../src/state/acme-challenges.js';
import { writeContainerNames } from '../../../../src/state/container-names.js';
import { emptyState, writeState } from '../../../../src/state/state.js';
import type { Change } from '../../../../src/zone/plan/plan.js';
import { tempDir } from '../../../helpers/cli.js';

const SECRET = 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LTEyMzQ=';
const keys = parseKeysFile(
  [
    `key "wide" { algorithm hmac-sha256; secret "${SECRET}"; };`,
    `key "exact" { algorithm hmac-sha256; secret "${SECRET}"; };`,
    'grant "wide" zonesub ANY;',
    'grant "exact" name home.example.com A;',
  ].join('\n'),
  'keys.conf',
);

const deleteOf = (name: string, type: string, value: string): Change => ({
  action: 'delete',
  before: { name, type, value, entityID: '1' },
});

describe('keptRecords', () => {
  it("keeps the configured hosts' and the state file's hosts' A and AAAA from a key without an exact grant", () => {
    const stateDir = tempDir('ddedge-kept-');
    writeState(stateDir, { ...emptyState(), records: { 'nas.example.com/A': { host: 'nas.example.com', type: 'A' } } });
    const check = keptRecords(stateDir, 'example.com', ['home.example.com'], keys);
    expect(check(deleteOf('home.example.com', 'A', '192.0.2.1'), 'wide')).toBe(
      'home.example.com A is kept by the ddedge agent; ' +
        'only a grant naming it exactly (grant "KEY" name home.example.com A) may change it',
    );
    expect(check(deleteOf('nas.example.com', 'AAAA', '2001:db8::1'), 'wide')).toContain(
      'nas.example.com AAAA is kept by the ddedge agent',
    );
    expect(check(deleteOf('www.example.com', 'A', '192.0.2.9'), 'wide')).toBeUndefined();
    expect(check(deleteOf('home.example.com', 'TXT', 'x'), 'wide')).toBeUndefined();
  });

  it('keeps the CNAME a container asked for (containers.json) from a key without an exact grant', () => {
    const stateDir = tempDir('ddedge-kept-');
    writeContainerNames(stateDir, {
      version: 1,
      names: [
        { name: 'cloud.example.com', target: 'home.example.com', containers: ['web'], since: '2026-12-02T00:00:00Z' },
      ],
      owned: [],
    });
    const check = keptRecords(stateDir, 'example.com', [], keys);
    expect(check(deleteOf('cloud.example.com', 'CNAME', 'home.example.com'), 'wide')).toContain(
      'cloud.example.com CNAME is kept by the ddedge agent',
    );
    expect(check(deleteOf('cloud.example.com', 'TXT', 'x'), 'wide')).toBeUndefined();
  });

  it('lets a key whose grant names the record exactly change it', () => {
    const check = keptRecords(tempDir('ddedge-kept-'), 'example.com', ['home.example.com'], keys);
    expect(check(deleteOf('home.example.com', 'A', '192.0.2.1'), 'exact')).toBeUndefined();
    expect(check(deleteOf('home.example.com', 'AAAA', '2001:db8::1'), 'exact')).toContain('kept by the ddedge agent');
  });

  it('keeps the challenges ddedge acme made', async () => {
    const stateDir = tempDir('ddedge-kept-');
    await updateAcmeChallenges(stateDir, async (challenges) => {
      challenges.push({
        name: '_acme-challenge.www.example.com',
        value: 'token-value',
        service: 'example.com',
        entityID: '9',
        createdAt: new Date().toISOString(),
      });
    });
    const check = keptRecords(stateDir, 'example.com', [], keys);
    expect(check(deleteOf('_acme-challenge.www.example.com', 'TXT', 'token-value'), 'wide')).toBe(
      '_acme-challenge.www.example.com TXT holds a challenge ddedge acme made; ' +
        'only a grant naming it exactly may change it',
    );
    expect(check(deleteOf('_acme-challenge.www.example.com', 'TXT', 'another-value'), 'wide')).toBeUndefined();
  });

  it('keeps the configured hosts still when the state file cannot be read', () => {
    const stateDir = tempDir('ddedge-kept-');
    mkdirSync(join(stateDir, 'state.json'));
    const check = keptRecords(stateDir, 'example.com', ['home.example.com'], keys);
    expect(check(deleteOf('home.example.com', 'A', '192.0.2.1'), 'wide')).toContain('kept by the ddedge agent');
  });
});
