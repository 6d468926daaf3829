// The events read from the stream and not yet handled, in order: the reader never waits for the
// handler (a listing or a look-up in flight), so the stream is drained while the engine speaks,
// and the queue's bound turns an engine faster than its handler into a reconnect.
import type { StreamLine } from '../../http/stream.js';

export class LineQueue {
  private readonly lines: StreamLine[] = [];
  private chars = 0;
  private ended = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly maxLines: number,
    private readonly maxChars: number,
  ) {}

  /** Adds a line; false when the queue is full. */
  push(line: StreamLine): boolean {
    const size = 'text' in line ? line.text.length : 0;
    if (this.lines.length >= this.maxLines || this.chars + size > this.maxChars) return false;
    this.lines.push(line);
    this.chars += size;
    this.notify();
    return true;
  }

  /** No more lines will come. */
  end(): void {
    this.ended = true;
    this.notify();
  }

  /** The next line, or undefined once the queue is ended and empty. */
  async next(): Promise<StreamLine | undefined> {
    // Each turn takes a line, ends, or waits for push() or end().
    for (;;) {
      const line = this.lines.shift();
      if (line) {
        this.chars -= 'text' in line ? line.text.length : 0;
        return line;
      }
      if (this.ended) return undefined;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
