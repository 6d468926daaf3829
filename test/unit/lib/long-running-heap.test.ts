import { describe, expect, it } from 'vitest';
import { collectAfterCycle } from '../../../src/lib/long-running-heap.js';

/** A WeakRef to an object nothing else holds, made in a job of its own (a WeakRef keeps its target while its job runs). */
async function deadObject(): Promise<WeakRef<object>> {
  const ref = new WeakRef({ cycle: 'garbage'.repeat(1000) });
  await new Promise((resolve) => setImmediate(resolve));
  return ref;
}

describe("a long-running command's collection after each cycle", () => {
  it('collects what a cycle left: an object nothing holds is gone once it returns', async () => {
    const first = await deadObject();
    collectAfterCycle();
    expect(first.deref()).toBeUndefined();
    const second = await deadObject();
    collectAfterCycle();
    expect(second.deref()).toBeUndefined();
  });

  it('collects through its own context: the program never sees a global gc', () => {
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
    collectAfterCycle();
    collectAfterCycle();
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
