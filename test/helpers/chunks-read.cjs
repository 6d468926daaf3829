// Preloaded (NODE_OPTIONS=--require) into the built ddedge: at exit, names on stderr the chunks
// of dist/chunks/ the run read, so a test can tell which code a command loaded.
const fs = require('node:fs');
const { basename } = require('node:path');
const read = fs.readFileSync;
const seen = new Set();
fs.readFileSync = function (path, ...rest) {
  if (typeof path === 'string' && path.includes('chunks')) seen.add(basename(path));
  return read.call(this, path, ...rest);
};
process.on('exit', () => fs.writeSync(2, `\nCHUNKS READ: ${[...seen].join(' ')}\n`));
