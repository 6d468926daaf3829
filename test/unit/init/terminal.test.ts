// The terminal's questions: an answer a line, a secret never echoed, and the end of input (or
// Ctrl-C) stops the questions.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Interrupted, openTerminal } from '../../../src/init/terminal.js';

function streams() {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (d) => (shown += d));
  return { input, output, shown: () => shown };
}

describe("init's terminal", () => {
  it('reads answers a line each and never echoes a secret', async () => {
    const { input, output, shown } = streams();
    const terminal = openTerminal(input, output);
    const host = terminal.ask('Host', 'a.example.com');
    input.write('\n');
    expect(await host).toBe('a.example.com');
    const secret = terminal.askSecret('Key');
    input.write('s3cret-Key\n');
    expect(await secret).toBe('s3cret-Key');
    terminal.close();
    expect(shown()).toContain('Key (not shown): ');
    expect(shown()).not.toContain('s3cret');
  });

  it('stops at the end of input, and at Ctrl-C', async () => {
    const first = streams();
    const ended = openTerminal(first.input, first.output).ask('Host');
    first.input.end();
    await expect(ended).rejects.toBeInstanceOf(Interrupted);
    const second = streams();
    const stopped = openTerminal(second.input, second.output).askSecret('Key');
    second.input.write('\x03');
    await expect(stopped).rejects.toBeInstanceOf(Interrupted);
  });
});
