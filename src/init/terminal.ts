// Questions on a terminal: one line each, a secret without echo. One readline interface reads
// every answer (two would split the typed-ahead input between them); a secret is read with its
// output muted. Ctrl-C or the end of input stops the questions, and init writes nothing.
import { createInterface, type Interface } from 'node:readline/promises';
import { Writable } from 'node:stream';

export class Interrupted extends Error {}

export interface Terminal {
  ask(question: string, fallback?: string): Promise<string>;
  askSecret(question: string): Promise<string>;
  say(text: string): void;
  close(): void;
}

/** The longest answer taken: far above any host list or key, a bound on what is held. */
const MAX_ANSWER = 4096;

export function openTerminal(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Terminal {
  let muted = false;
  const shown = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) output.write(chunk);
      done();
    },
  });
  const rl: Interface = createInterface({ input, output: shown, terminal: true, historySize: 0 });
  const stop = new AbortController();
  rl.on('SIGINT', () => stop.abort());
  rl.on('close', () => stop.abort());
  const question = async (text: string): Promise<string> => {
    try {
      const answer = (await rl.question(text, { signal: stop.signal })).trim();
      if (answer.length > MAX_ANSWER) throw new Interrupted(`an answer is at most ${MAX_ANSWER} characters`);
      return answer;
    } catch (error) {
      if (error instanceof Interrupted) throw error;
      throw new Interrupted('stopped before the last answer; nothing was written');
    }
  };
  return {
    ask: async (text, fallback) =>
      (await question(fallback ? `${text} [${fallback}]: ` : `${text}: `)) || fallback || '',
    async askSecret(text) {
      output.write(`${text} (not shown): `);
      muted = true;
      try {
        return await question('');
      } finally {
        muted = false;
        output.write('\n');
      }
    },
    say: (text) => void output.write(text),
    close: () => rl.close(),
  };
}
