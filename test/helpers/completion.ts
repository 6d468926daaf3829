// What bash completion offers for a command line: the generated script sourced in a real bash.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseEnv, runDist, tempDir } from './cli.js';

/** The script, written by the built file once per test file: it is the same for every line. */
let scriptFile: Promise<string> | undefined;
const completionScript = (): Promise<string> =>
  (scriptFile ??= runDist(['completion', 'bash'], baseEnv()).then(({ stdout }) => {
    const script = join(tempDir(), 'ddedge.bash');
    writeFileSync(script, stdout);
    return script;
  }));

export async function complete(...words: string[]): Promise<string[]> {
  const script = await completionScript();
  const quoted = words.map((w) => `'${w}'`).join(' ');
  const out = execFileSync(
    'bash',
    [
      '-c',
      `source '${script}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _ddedge; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { encoding: 'utf8' },
  );
  return out.split('\n').filter(Boolean);
}
