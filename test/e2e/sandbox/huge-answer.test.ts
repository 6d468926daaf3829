// The sandbox's "huge" fault streams 50 MB with back-pressure: waiting for the reader must
// not pile up listeners (the MaxListenersExceededWarning once seen in the test run).
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { parseFault } from '../../../src/sandbox/faults.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

describe('the huge fault', () => {
  const sandbox = useSandbox({ faults: [parseFault('tool/hello=huge')] });

  it('streams to a slow reader without a MaxListenersExceededWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const received = await new Promise<number>((resolve, reject) => {
        const req = http.request(`${sandbox.url}/tool/hello/`, { method: 'POST' }, (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            // A reader slower than the writer: the sandbox waits for 'drain' many times over.
            res.pause();
            setTimeout(() => res.resume(), 1);
            if (bytes >= 4 * 1024 * 1024) {
              req.destroy();
              resolve(bytes);
            }
          });
          res.on('error', reject);
        });
        req.on('error', () => undefined);
        req.end('apiuser=demo-user');
      });
      expect(received).toBeGreaterThanOrEqual(4 * 1024 * 1024);
      // Warnings are emitted on the next tick: one turn of the event loop shows them.
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.includes('MaxListeners'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
