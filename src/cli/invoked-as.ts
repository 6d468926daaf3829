// How to write ddedge in a command it prints for the user to paste: as it was run. Installed
// (npm, the Debian package, a single executable) that is `ddedge`; from a checkout it is `node
// dist/ddedge.mjs`, which a newcomer can paste as it is (no `ddedge` on the PATH there).
import { basename, isAbsolute, relative } from 'node:path';

export function invokedAs(script: string | undefined, cwd: string, execPath: string): string {
  if (!script || script === execPath || basename(script) === 'ddedge') return 'ddedge';
  const near = relative(cwd, script);
  return `node ${near && !near.startsWith('..') && !isAbsolute(near) ? near : script}`;
}
