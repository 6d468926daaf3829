// The random ID of a DNS question (with the random source port, what keeps a spoofed answer
// out). Read from the kernel's random source, /dev/urandom, as node:crypto would: node:crypto
// itself loads Node's streams and some 30 modules that a cycle asking the DNS sources needs
// for nothing else. node:crypto where /dev/urandom cannot be read.
const pool = Buffer.alloc(256);
let used = pool.length;

export function randomQueryId(): number {
  if (used + 2 > pool.length) refill();
  const id = pool.readUInt16BE(used);
  used += 2;
  return id;
}

function refill(): void {
  const fs = process.getBuiltinModule('node:fs');
  let read = 0;
  try {
    const fd = fs.openSync('/dev/urandom', 'r');
    try {
      read = fs.readSync(fd, pool, 0, pool.length, null);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    read = 0;
  }
  if (read !== pool.length) process.getBuiltinModule('node:crypto').randomFillSync(pool);
  used = 0;
}
