// Every JSON state file of every command, through its own opener, in each way it can be found
// damaged: a symbolic link (to a good file: a link is refused, not followed), a FIFO, a huge
// file, not JSON, JSON of the wrong shape, one field of the wrong type. Each is said in the one
// form (`<file> is damaged (<reason>); …`) and then set aside as <file>.damaged, or refused
// (exit 2, the file left in place) where the file's type says so; a missing file is no damage.
// No message ever holds a byte of the file.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DhcidStore } from '../../../src/gateway/dhcid/store.js';
import { SerialStore } from '../../../src/gateway/dns/serial-store.js';
import { GatewayBudget } from '../../../src/gateway/limits/call-budget.js';
import { OwnersLedger } from '../../../src/gateway/limits/key-quotas.js';
import { ReplayMemory } from '../../../src/gateway/limits/replay-memory.js';
import { ConfigError } from '../../../src/lib/errors.js';
import type { Logger } from '../../../src/lib/log.js';
import { readAcmeChallenges } from '../../../src/state/acme-challenges.js';
import { readHistory } from '../../../src/state/history.js';
import { readState } from '../../../src/state/state.js';
import { tempDir } from '../../helpers/cli.js';

/** In every file below: a message that quotes the file shows it. */
const CANARY = 'canary-5ec';

interface StateFileCase {
  /** The file, within a state directory. */
  file: string;
  /** A file the opener takes without a word (through a link it must not be taken). */
  good: string;
  /** The good file with one field of the wrong type. */
  oneFieldWrong: string;
  /** Valid JSON of the wrong shape. */
  wrongShape?: string;
  /** Opens the file as its command does; returns what it said, or throws its refusal. */
  open: (stateDir: string) => string | undefined;
  /** Refused rather than set aside: only when it cannot be read at all, or for any damage. */
  refuses?: 'unusable' | 'always';
}

function warnings(): Logger & { said: () => string | undefined } {
  const lines: string[] = [];
  const push = (line: string) => void lines.push(line);
  return { said: () => (lines.length ? lines.join('\n') : undefined), error: push, warn: push, info() {}, debug() {} };
}

const through = (open: (stateDir: string, logger: Logger) => unknown) => (stateDir: string) => {
  const logger = warnings();
  open(stateDir, logger);
  return logger.said();
};

const DHCID = `000201${'ab'.repeat(32)}`;
const AT = '2026-01-01T00:00:00.000Z';
const json = (value: unknown) => JSON.stringify(value);
const history = (address: unknown) => ({ at: AT, host: `${CANARY}.x`, type: 'A', event: 'changed', new: address });
const challenge = (id: unknown) => ({
  name: '_acme-challenge.example.com',
  value: CANARY,
  service: 'certbot',
  entityID: id,
  createdAt: AT,
});
const dhcid = (ttl: unknown) => ({
  version: 1,
  zones: { 'example.com': [{ name: `${CANARY}.example.com`, ttl, data: DHCID }] },
});
const CASES: StateFileCase[] = [
  {
    file: 'state.json',
    good: json({ version: 1, records: { 'h/A': { host: `${CANARY}.example.com`, type: 'A', address: '81.0.2.15' } } }),
    oneFieldWrong: json({ version: 1, records: { 'h/A': { host: `${CANARY}.example.com`, type: 'A', address: 5 } } }),
    open: (dir) => readState(dir, true).damage,
    refuses: 'unusable',
  },
  {
    file: 'history.json',
    good: json({ version: 1, entries: [history('81.0.2.15')] }),
    oneFieldWrong: json({ version: 1, entries: [history(5)] }),
    open: (dir) => readHistory(dir, true).damage,
  },
  {
    file: 'acme/challenges.json',
    good: json({ version: 1, challenges: [challenge('7')] }),
    oneFieldWrong: json({ version: 1, challenges: [challenge(7)] }),
    open: (dir) => readAcmeChallenges(dir, true).damage,
    refuses: 'unusable',
  },
  {
    file: 'gateway/calls.json',
    good: json({ version: 1, calls: { 29000000: 3 } }),
    oneFieldWrong: json({ version: 1, calls: { 29000000: CANARY } }),
    open: through((dir, logger) => new GatewayBudget(dir, 600, logger)),
    refuses: 'always',
  },
  {
    file: 'gateway/owners.json',
    good: json({ version: 1, zones: { 'example.com': [['a.example.com', 'TXT', CANARY, 'kea']] } }),
    oneFieldWrong: json({ version: 1, zones: { 'example.com': [['a.example.com', 'TXT', CANARY, 5]] } }),
    open: through((dir, logger) => OwnersLedger.open(dir, logger)),
  },
  {
    file: 'gateway/serials.json',
    good: json({ 'example.com': { serial: 5, digest: CANARY } }),
    oneFieldWrong: json({ 'example.com': { serial: 5, digest: 5 }, [CANARY]: { serial: 6, digest: 'aa' } }),
    open: through((dir, logger) => SerialStore.open(dir, logger)),
  },
  {
    file: 'gateway/replay.json',
    good: json([['kea', CANARY, 99999999999]]),
    oneFieldWrong: json([['kea', CANARY, '99999999999']]),
    wrongShape: json({ [CANARY]: [] }),
    open: through((dir, logger) => ReplayMemory.load(ReplayMemory.pathIn(dir), 0, logger)),
  },
  {
    file: 'gateway/dhcid.json',
    good: json(dhcid(60)),
    oneFieldWrong: json(dhcid('60')),
    open: (dir) => void DhcidStore.open(dir),
    refuses: 'always',
  },
];

type Damage = 'a symbolic link' | 'a FIFO' | 'a huge file' | 'not JSON' | 'the wrong shape' | 'one field wrong';
const UNUSABLE: Damage[] = ['a symbolic link', 'a FIFO', 'a huge file'];

function make(damage: Damage, path: string, c: StateFileCase): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  if (damage === 'a symbolic link') {
    const target = join(tempDir('ddedge-link-target-'), 'good.json');
    writeFileSync(target, c.good);
    symlinkSync(target, path);
  } else if (damage === 'a FIFO') execFileSync('mkfifo', [path]);
  else if (damage === 'a huge file') {
    // Sparse: no disk is used, and a reader that trusts it allocates 4 GiB.
    writeFileSync(path, '');
    truncateSync(path, 4 * 1024 ** 3);
  } else if (damage === 'not JSON') writeFileSync(path, `${CANARY} {`);
  else writeFileSync(path, damage === 'the wrong shape' ? (c.wrongShape ?? `["${CANARY}"]`) : c.oneFieldWrong);
}

const REASONS: Record<Damage, RegExp> = {
  'a symbolic link': /a symbolic link, not a regular file/,
  'a FIFO': /a FIFO, not a regular file/,
  'a huge file': /4294967296 bytes, too large/,
  'not JSON': /not valid JSON/,
  'the wrong shape': /is not (an object|a list)/,
  'one field wrong': /\[0\]|\[#1\]/,
};

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

describe('every JSON state file, damaged', () => {
  for (const c of CASES) {
    it(`${c.file}: a missing file is no damage, a good one is read without a word`, () => {
      const dir = tempDir('ddedge-state-');
      expect(c.open(dir)).toBeUndefined();
      mkdirSync(dirname(join(dir, c.file)), { recursive: true });
      writeFileSync(join(dir, c.file), c.good);
      expect(c.open(dir)).toBeUndefined();
    });

    for (const damage of Object.keys(REASONS) as Damage[]) {
      const refused = c.refuses === 'always' || (c.refuses === 'unusable' && UNUSABLE.includes(damage));
      const outcome = refused ? 'refused, left in place' : 'set aside and said';
      it(`${c.file} that is ${damage}: ${outcome}, never quoted`, () => {
        const dir = tempDir('ddedge-state-');
        const path = join(dir, c.file);
        make(damage, path, c);
        let said: string | undefined;
        let error: unknown;
        try {
          said = c.open(dir);
        } catch (e) {
          error = e;
        }
        if (refused) {
          expect(error, String(said)).toBeInstanceOf(ConfigError);
          said = (error as Error).message;
          expect(lstatSync(path)).toBeTruthy();
          expect(existsSync(`${path}.damaged`)).toBe(false);
        } else {
          expect(error).toBeUndefined();
          const line = `${escaped(path)} is damaged \\([^\\n]+\\); set aside as ${escaped(path)}\\.damaged`;
          expect(said).toMatch(new RegExp(line));
          expect(existsSync(path)).toBe(false);
          expect(lstatSync(`${path}.damaged`)).toBeTruthy();
        }
        expect(said).toContain(path);
        expect(said).toMatch(REASONS[damage]);
        expect(said).not.toContain(CANARY);
        // What was set aside is the file as it was, for a person to look at.
        if (!refused && !UNUSABLE.includes(damage)) expect(readFileSync(`${path}.damaged`, 'utf8')).toContain(CANARY);
      });
    }
  }
});
