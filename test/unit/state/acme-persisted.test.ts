// <state dir>/acme/persisted.json is read as what `acme persist` writes, field by field: a file
// edited by hand or by another user, whose text holds terminal controls or markup, or whose time
// no date can show, is damage (said, set aside by a writer), never shown, sent or computed with.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { persistExpiryNotices, persistedRows } from '../../../src/agent/persist-watch.js';
import { createLogger } from '../../../src/lib/log.js';
import { readPersisted } from '../../../src/state/acme-persisted.js';
import { baseEnv, runMain, tempDir } from '../../helpers/cli.js';

const GOOD = {
  name: '_validation-persist.example.com',
  domain: 'example.com',
  service: 'example.com',
  issuer: 'letsencrypt.org',
  accountUri: 'https://acme.example/acme/acct/42',
  wildcard: true,
  persistUntil: 1_830_297_600,
  writtenAt: '2026-12-01T00:00:00.000Z',
};

function stateWith(record: Record<string, unknown>): string {
  const stateDir = tempDir('ddedge-persisted-');
  mkdirSync(join(stateDir, 'acme'), { recursive: true, mode: 0o700 });
  writeFileSync(join(stateDir, 'acme', 'persisted.json'), JSON.stringify({ version: 1, records: [record] }));
  return stateDir;
}

describe('persisted.json', () => {
  it('reads a record as acme persist writes it', () => {
    expect(readPersisted(stateWith(GOOD))).toEqual({ records: [GOOD] });
  });

  it.each([
    ['a persistUntil no date can show', { persistUntil: 2 ** 53 - 1 }],
    ['a negative persistUntil', { persistUntil: -(2 ** 53 - 1) }],
    ['a warnedFor no date can show', { warnedFor: 2 ** 53 - 1 }],
    ['terminal controls in the name', { name: '_validation-persist.\u001b]0;x\u0007example.com' }],
    ['markup in the domain', { domain: '*bold* <b>x</b>' }],
    ['a domain that is not the name', { domain: 'example.net' }],
    ['an issuer that is not a domain name', { issuer: 'Lets Encrypt' }],
    ['an account URI a CA would not take', { accountUri: 'https://ca.example/\u009b2J x' }],
    ['a service that is not a domain name', { service: '<script>' }],
    ['a writtenAt that is no time', { writtenAt: '\u001b[2J' }],
  ])('is damaged with %s, and `status` says so without crashing or showing it', async (_what, change) => {
    const stateDir = stateWith({ ...GOOD, ...change });
    const loaded = readPersisted(stateDir);
    expect(loaded.records).toEqual([]);
    expect(loaded.damage).toContain('is damaged');
    expect(() => persistedRows(stateDir, Date.now())).not.toThrow();
    const status = await runMain(['status'], baseEnv({ DDEDGE_STATE_DIR: stateDir }));
    expect(status.code, status.stderr).toBe(0);
    expect(status.stderr).toContain('persisted.json is damaged');
    expect(`${status.stdout}${status.stderr}`).not.toMatch(/[\u001b\u0007\u009b<]/);
  });

  it.each([
    ['a FIFO', (file: string) => execFileSync('mkfifo', [file])],
    ['a link to a secret', (file: string) => symlinkSync(secretFile(), file)],
    ['9 MB', (file: string) => writeFileSync(file, ' '.repeat(9 * 1024 * 1024))],
  ])(
    'in place of the file, %s is damage: no hang, nothing quoted, the daemon warns of nothing',
    async (_what, make) => {
      const stateDir = tempDir('ddedge-persisted-');
      mkdirSync(join(stateDir, 'acme'), { recursive: true, mode: 0o700 });
      make(join(stateDir, 'acme', 'persisted.json'));
      const loaded = readPersisted(stateDir);
      expect(loaded.records).toEqual([]);
      expect(loaded.damage).toContain('is damaged');
      expect(loaded.damage).not.toContain(SECRET);
      const lines: string[] = [];
      const logger = createLogger({ level: 'debug', format: 'text', write: (line) => void lines.push(line) });
      expect(await persistExpiryNotices(stateDir, new Date(), logger)).toEqual([]);
      expect(lines.join('')).not.toContain(SECRET);
    },
  );
});

const SECRET = 'canary-5ecret-persisted';
function secretFile(): string {
  const file = join(tempDir('ddedge-secret-'), 'key.json');
  writeFileSync(file, JSON.stringify({ version: 1, records: SECRET }));
  return file;
}
