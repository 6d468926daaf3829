// A request body read whole, within a bound: a body announced or grown past it is not read on
// (the caller answers 413 and closes the connection), so a client cannot make a server hold more
// than the bound per request however slowly or largely it sends.
import type { IncomingMessage } from 'node:http';

/** The body as text, or undefined when it is longer than `maxBytes` (or the request broke off). */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    if (Number(req.headers['content-length'] ?? 0) > maxBytes) return resolve(undefined);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.removeAllListeners('data');
        req.pause();
        return resolve(undefined);
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(undefined));
  });
}
