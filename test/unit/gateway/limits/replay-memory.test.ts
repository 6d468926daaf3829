// The gateway's memory of signed updates acted on: each key apart, kept across a restart in a
// file, and a damaged or unreadable file is a warning (an empty memory), never a crash.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EARLIER_RUN, ReplayMemory } from '../../../../src/gateway/limits/replay-memory.js';
import { tempDir } from '../../../helpers/cli.js';

const logger = () => {
  const lines: string[] = [];
  return {
    lines,
    error: (l: string) => lines.push(l),
    warn: (l: string) => lines.push(l),
    info: () => undefined,
    debug: () => undefined,
  };
};
const answer = Promise.resolve(Buffer.alloc(12));

describe('ReplayMemory', () => {
  it('keeps the open windows across a save and a load; closed ones are dropped', () => {
    const file = join(tempDir(), 'gateway', 'replay.json');
    const memory = new ReplayMemory(file);
    memory.remember('a', 'aa01', 1_000, answer, 500);
    memory.remember('b', 'bb02', 2_000, answer, 500);
    const log = logger();
    memory.save(500, log);
    const loaded = ReplayMemory.load(file, 1_500, log);
    expect(loaded.get('a', 'aa01', 1_500)).toBeUndefined();
    expect(loaded.get('b', 'bb02', 1_500)).toBe(EARLIER_RUN);
    expect(log.lines).toEqual([]);
  });

  it('holds each key apart: one key full of open windows does not refuse another', () => {
    const memory = new ReplayMemory();
    let kept = 0;
    for (let i = 0; i < 5_000; i++) if (memory.remember('flood', `m${i}`, 10_000, answer, 1)) kept++;
    expect(kept).toBe(4_096);
    expect(memory.remember('other', 'm0', 10_000, answer, 1)).toBe(true);
  });

  it('starts empty, with a warning, from a damaged file', () => {
    const file = join(tempDir(), 'replay.json');
    for (const text of ['{', '{"a":1}', '[["k", 1, 2]]']) {
      writeFileSync(file, text);
      const log = logger();
      const memory = ReplayMemory.load(file, 0, log);
      expect(memory.get('k', '1', 0)).toBeUndefined();
      expect(log.lines.join('\n')).toMatch(/replay\.json is damaged .*not remembered against replay/);
    }
  });

  it('writes only when something changed', () => {
    const file = join(tempDir(), 'replay.json');
    const memory = new ReplayMemory(file);
    memory.remember('a', 'aa', 100, answer, 1);
    memory.save(1, logger());
    writeFileSync(file, 'untouched');
    memory.save(1, logger());
    expect(readFileSync(file, 'utf8')).toBe('untouched');
  });
});

describe('two gateways on one state directory', () => {
  it("keep each other's entries in the file: the last to write does not drop the other's", () => {
    const file = join(tempDir(), 'replay.json');
    const one = new ReplayMemory(file);
    const two = new ReplayMemory(file);
    one.remember('a', 'aa', 1_000, answer, 1);
    one.save(1, logger());
    two.remember('b', 'bb', 1_000, answer, 1);
    two.save(1, logger());
    const loaded = ReplayMemory.load(file, 2, logger());
    expect([loaded.get('a', 'aa', 2), loaded.get('b', 'bb', 2)]).toEqual([EARLIER_RUN, EARLIER_RUN]);
  });
});
