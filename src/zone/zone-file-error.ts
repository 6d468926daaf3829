import { ConfigError } from '../errors.js';

/** A file that cannot be used as a zone: names the file, line and column, and why (exit 2). */
export class ZoneFileError extends ConfigError {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}:${column}: ${reason}`);
  }
}
