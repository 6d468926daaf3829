// A clock the test moves: time stands still until advance() or advanceAsync(), which run the
// tasks that fall due, in order, each at its own time.
import type { Clock } from '../../src/lib/clock.js';

interface Task {
  due: number;
  seq: number;
  run: () => void;
}

export class FakeClock implements Clock {
  private tasks: Task[] = [];
  private seq = 0;
  private scheduledCount = 0;

  constructor(private at = Date.UTC(2026, 0, 1)) {}

  now(): number {
    return this.at;
  }

  after(ms: number, run: () => void): () => void {
    this.scheduledCount++;
    const task = { due: this.at + Math.max(0, ms), seq: this.seq++, run };
    this.tasks.push(task);
    return () => {
      this.tasks = this.tasks.filter((t) => t !== task);
    };
  }

  /** Tasks ever scheduled: a test waits for the code to schedule its next one. */
  get scheduled(): number {
    return this.scheduledCount;
  }

  /** Tasks waiting to fall due. */
  get pending(): number {
    return this.tasks.length;
  }

  /** When the next task falls due, if any. */
  get nextDue(): number | undefined {
    return this.next()?.due;
  }

  /** Moves the clock `ms` on, running each task that falls due on the way (synchronously). */
  advance(ms: number): void {
    const end = this.at + ms;
    for (let task = this.next(); task && task.due <= end; task = this.next()) this.fire(task);
    this.at = end;
  }

  /** As advance(), letting promises settle after each task (what an awaited wait needs to go on). */
  async advanceAsync(ms: number): Promise<void> {
    const end = this.at + ms;
    await settle();
    for (let task = this.next(); task && task.due <= end; task = this.next()) {
      this.fire(task);
      await settle();
    }
    this.at = end;
  }

  private next(): Task | undefined {
    return [...this.tasks].sort((a, b) => a.due - b.due || a.seq - b.seq)[0];
  }

  private fire(task: Task): void {
    this.tasks = this.tasks.filter((t) => t !== task);
    this.at = Math.max(this.at, task.due);
    task.run();
  }
}

/** Lets pending promise callbacks and one turn of I/O run. */
export const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Waits, turn by turn, until `condition` holds: for an event, bounded only by the test's timeout. */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await settle();
}
