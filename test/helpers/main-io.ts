// What main() writes and reads when a test runs a command in-process: its output collected,
// an environment of the test's own (never the developer's DDEDGE_* settings).
import type { Io } from '../../src/cli/io.js';
import { tempDir } from './cli.js';

export type CollectingIo = Io & { out: string; err: string };

export function collectingIo(env: Record<string, string> = {}): CollectingIo {
  const sink = { out: '', err: '' };
  return Object.assign(sink, {
    stdout: (text: string) => void (sink.out += text),
    stderr: (text: string) => void (sink.err += text),
    env: { HOME: tempDir('ddedge-home-'), ...env },
    cwd: tempDir('ddedge-cwd-'),
    isTTY: false,
  });
}
