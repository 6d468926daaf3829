import type { Env } from '../config/env-sources.js';

/** What a command may touch of the outside world; tests pass their own. */
export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Env;
  cwd: string;
  isTTY: boolean;
}

export const processIo = (): Io => ({
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  isTTY: Boolean(process.stdout.isTTY),
});
