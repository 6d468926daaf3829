// A try block of the docs is pasted into a shell by a newcomer, often twice, on a machine where
// other programs run. So a block that starts the sandbox in the background and then reads the
// file it writes waits for that file's last line (`SANDBOX_PORT`) first (read too early, the file
// is empty and the commands after it go to the real provider), and a block that starts programs
// in the background stops them at its end, so none is left holding a port; the exceptions are
// blocks whose page says what stops them (Pebble's start, stopped by a block of its own; the zone
// tour's sandbox, which the tour's commands use and the prose says to stop when done).
import { describe, expect, it } from 'vitest';
import { docPage, docPages } from '../../helpers/readme-recipes.js';

/** Blocks whose programs their page stops elsewhere, by their first line. */
const STOPPED_ELSEWHERE = [
  'try=~/pebble-try && mkdir -p $try && rm -f $try/sandbox.env',
  'rm -f sandbox.env; node dist/ddedge.mjs sandbox --print-env > sandbox.env &   # a free port',
];

interface Block {
  page: string;
  line: number;
  lines: string[];
}

/** Every sh block of the docs with the line its fence opens on. */
function shellBlocks(): Block[] {
  return docPages().flatMap((page) => {
    const text = docPage(page);
    return [...text.matchAll(/^```(?:sh|bash)\n([\s\S]*?)^```$/gm)].map((m) => ({
      page,
      line: text.slice(0, m.index).split('\n').length,
      lines: m[1]!.split('\n'),
    }));
  });
}

/** The line (index) that reads the sandbox's file with `. FILE`, or -1. */
const readsSandboxEnv = (lines: string[]) => lines.findIndex((l) => /^\. \S*sandbox\.env\b/.test(l));
/** A line that starts a program in the background (`… &`, before any comment). */
const startsInBackground = (line: string) => /[^&]&\s*(#.*)?$/.test(line);

/** The try blocks: they read the sandbox's file with `. FILE` and run commands after it. */
const tryBlocks = () => shellBlocks().filter((block) => readsSandboxEnv(block.lines) >= 0);

describe('try blocks of the docs', () => {
  it('finds the try blocks of the pages', () => {
    expect(tryBlocks().length).toBeGreaterThan(8);
  });

  it('wait until the sandbox listens before reading its file', () => {
    const early = tryBlocks()
      .filter((block) => {
        const read = readsSandboxEnv(block.lines);
        const started = block.lines.findIndex((l) => /sandbox .*--print-env/.test(l) && startsInBackground(l));
        const waited = block.lines.findIndex((l) => l.includes('SANDBOX_PORT'));
        return started >= 0 && started < read && !(waited > started && waited < read);
      })
      .map((block) => `${block.page}:${block.line}`);
    expect(early).toEqual([]);
  });

  it('started from a checkout (node dist/ddedge.mjs), show why when the sandbox stopped instead (no dist/ yet)', () => {
    const silent = tryBlocks()
      .filter((block) =>
        block.lines.some((l) => /node dist\/ddedge\.mjs sandbox .*--print-env/.test(l) && startsInBackground(l)),
      )
      .filter((block) => !block.lines.some((l) => l.includes('SANDBOX_PORT') && l.includes('kill -0 $!')))
      .map((block) => `${block.page}:${block.line}`);
    expect(silent).toEqual([]);
  });

  it('stop at their end what they started in the background', () => {
    const leftRunning = tryBlocks()
      .filter((block) => block.lines.some(startsInBackground))
      .filter((block) => !STOPPED_ELSEWHERE.includes(block.lines[0]!))
      .filter((block) => !block.lines.some((l) => /^kill /.test(l)))
      .map((block) => `${block.page}:${block.line}`);
    expect(leftRunning).toEqual([]);
  });

  it('start the sandbox in a block of its own, not in running prose', () => {
    // Inline code cannot hold the wait: a page's prose names the block instead.
    const inProse = docPages().filter((page) => /`[^`\n]*sandbox[^`\n]*--print-env[^`\n]*&`/.test(docPage(page)));
    expect(inProse).toEqual([]);
  });
});
