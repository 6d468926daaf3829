// The child of scripts/code-cache.mjs: runs dist/ddedge.mjs as the program it is (its command
// line is this process's), and at the exit writes the code cache of every chunk it ran beside
// the chunk.
import { writeFileSync } from 'node:fs';

const { scripts, codeCacheOf } = await import(new URL('../dist/ddedge.mjs', import.meta.url).href);
process.on('exit', () => {
  for (const file of scripts.keys()) writeFileSync(`${file}.v8cache`, codeCacheOf(file));
});
