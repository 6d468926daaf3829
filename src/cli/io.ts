import type { Env } from '../config/env-sources.js';
import { outputNeverBlocks, writeStderr, writeStdout } from './process-output.js';

/** What a command may touch of the outside world; tests pass their own. */
export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Env;
  cwd: string;
  isTTY: boolean;
  /**
   * A command that runs until stopped calls it first: a reader that stops reading cannot block it. `beforeExit` is
   * its last act before the process exits.
   */
  outputNeverBlocks?(beforeExit?: () => void): void;
}

export function processIo(): Io {
  let isTTY: boolean | undefined;
  return {
    stdout: writeStdout,
    stderr: writeStderr,
    outputNeverBlocks,
    env: process.env,
    cwd: process.cwd(),
    // Asked only by output that differs on a terminal; node:tty is not loaded otherwise.
    get isTTY() {
      isTTY ??= process.getBuiltinModule('node:tty').isatty(1);
      return isTTY;
    },
  };
}
