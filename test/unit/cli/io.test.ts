// processIo(): what a command touches of the real process, and nothing else.
import { isatty } from 'node:tty';
import { describe, expect, it } from 'vitest';
import { processIo } from '../../../src/cli/io.js';
import { writeStderr, writeStdout } from '../../../src/cli/process-output.js';

describe('processIo', () => {
  it("is the process's environment, folder, output and terminal", () => {
    const io = processIo();
    expect(io.env).toBe(process.env);
    expect(io.cwd).toBe(process.cwd());
    expect(io.stdout).toBe(writeStdout);
    expect(io.stderr).toBe(writeStderr);
    expect(typeof io.outputNeverBlocks).toBe('function');
    expect(io.isTTY).toBe(isatty(1));
  });
});
