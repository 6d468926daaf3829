import type { Env } from '../config/env-sources.js';
import { watchStandardStreams, writeStandard, writeStderr } from './process-output.js';

/** What a command may touch of the outside world; tests pass their own. */
export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Env;
  cwd: string;
  isTTY: boolean;
}

export function processIo(): Io {
  watchStandardStreams();
  return {
    stdout: (text) => writeStandard(process.stdout, text),
    stderr: writeStderr,
    env: process.env,
    cwd: process.cwd(),
    isTTY: Boolean(process.stdout.isTTY),
  };
}
