// The child of build/code-cache.mjs: runs dist/ddedge.mjs as the program it is (its command
// line is this process's), and at the exit writes the code cache of every chunk it ran beside
// the chunk, as the launcher reads it (codeCacheOf in bootstrap/launcher.ts).
// A static import: this module's body runs right after the launcher's, before the command can
// end; after an `await import()` the exit could come first and nothing would be written.
import { writeFileSync } from 'node:fs';
import { codeCacheOf, scripts } from '../dist/ddedge.mjs';

process.on('exit', () => {
  for (const file of scripts.keys()) writeFileSync(`${file}.v8cache`, codeCacheOf(file));
});
