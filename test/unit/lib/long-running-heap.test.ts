import { describe, expect, it } from 'vitest';
import { collectAfterCycle } from '../../../src/lib/long-running-heap.js';

describe("a long-running command's collection after each cycle", () => {
  it('collects through its own context: the program never sees a global gc', () => {
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
    collectAfterCycle();
    collectAfterCycle();
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
