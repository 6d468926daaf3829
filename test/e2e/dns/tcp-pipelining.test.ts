// TCP clients that pipeline (RFC 7766 6.2.1.1) against the built `ddedge sandbox --dns-port` (the
// same listener serves the gateway). A client that reads gets every answer in order; clients that
// pipeline thousands of queries and never read the answers (the tcpflood2 attack: 256 connections
// from 8 addresses, 3,000 `big.example.com TXT` each) must not keep another client's UDP and TCP
// queries from being answered.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, startDist, waitForOutput } from '../../helpers/cli.js';
import { queryPacket, readAnswer, tcpExchange, udpExchange } from '../../helpers/dns-wire.js';

const TXT = 16;
let sandbox: { child: ReturnType<typeof startDist>; dnsPort: number };

beforeAll(async () => {
  const child = startDist(['sandbox', '--port', '0', '--dns-port', '0', '--json'], baseEnv());
  const line = await waitForOutput(child, 'stdout', (t) => t.includes('\n'));
  const started = JSON.parse(line) as { apiUrl: string; dnsPort: number };
  sandbox = { child, dnsPort: started.dnsPort };
  const body = new URLSearchParams({
    apiuser: 'demo-user',
    apipasswd: 'demo-api-password',
    serviceName: 'example.com',
    name: 'big.example.com',
    type: 'TXT',
    value: 'x'.repeat(1000),
  });
  const answer = (await (await fetch(`${started.apiUrl}/service/dnscreate/`, { method: 'POST', body })).json()) as {
    success: boolean;
  };
  expect(answer.success).toBe(true);
});
afterAll(() => {
  sandbox?.child.kill('SIGTERM');
});

/** `count` framed queries for big.example.com TXT, ids 0..count-1, as one buffer. */
function pipeline(count: number): Buffer {
  return Buffer.concat(
    Array.from({ length: count }, (_, id) => {
      const q = queryPacket({ id, name: 'big.example.com', type: TXT });
      const prefix = Buffer.alloc(2);
      prefix.writeUInt16BE(q.length);
      return Buffer.concat([prefix, q]);
    }),
  );
}

describe('TCP pipelining', () => {
  it('answers all of 3,000 pipelined queries, in order, to a client that reads', async () => {
    // One write of 3,000 messages, as a batch client (external-dns, nsupdate -v) may send them.
    const ids = await new Promise<number[]>((resolve, reject) => {
      const got: number[] = [];
      let pending = Buffer.alloc(0);
      const s = net.connect(sandbox.dnsPort, '127.0.0.1', () => s.write(pipeline(3000)));
      const timer = setTimeout(() => {
        s.destroy();
        reject(new Error(`${got.length} of 3000 answers`));
      }, 60_000);
      s.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      s.on('data', (chunk: Buffer) => {
        pending = Buffer.concat([pending, chunk]);
        while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
          const message = pending.subarray(2, 2 + pending.readUInt16BE(0));
          expect(readAnswer(message).answers[0]!.type).toBe('TXT');
          got.push(message.readUInt16BE(0));
          pending = pending.subarray(2 + message.length);
        }
        if (got.length === 3000) {
          clearTimeout(timer);
          s.destroy();
          resolve(got);
        }
      });
    });
    expect(ids).toEqual(Array.from({ length: 3000 }, (_, i) => i));
  }, 90_000);

  it('closes a connection that pipelines 20,000 queries and does not read its answers for longer than the idle time', async () => {
    const result = await new Promise<{ closed: boolean; bytes: number }>((resolve) => {
      let bytes = 0;
      const s = net.connect(sandbox.dnsPort, '127.0.0.1', () => s.write(pipeline(20_000)));
      s.pause();
      // 20 MB of answers is more than the kernel's buffers hold (4 MiB send, 6 MiB receive at most), so the server's queue fills and does
      // not drain within its idle time (10 s); reading only after 15 s finds the connection closed
      // short of 20,000 answers. The 40 s bound only keeps a broken server from hanging the test.
      setTimeout(() => {
        s.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        s.resume();
      }, 15_000);
      const timer = setTimeout(() => {
        s.destroy();
        resolve({ closed: false, bytes });
      }, 40_000);
      s.on('close', () => {
        clearTimeout(timer);
        resolve({ closed: true, bytes });
      });
      s.on('error', () => undefined);
    });
    expect(result.closed).toBe(true);
    expect(result.bytes).toBeLessThan(20_000 * 1000);
  }, 60_000);

  it('answers another client over UDP and TCP while 256 connections from 8 addresses pipeline 3,000 queries each and never read', async () => {
    const payload = pipeline(3000);
    const hogs: net.Socket[] = [];
    await Promise.all(
      Array.from(
        { length: 256 },
        (_, i) =>
          new Promise<void>((resolve) => {
            const s = net.connect(
              { port: sandbox.dnsPort, host: '127.0.0.1', localAddress: `127.0.0.${10 + (i % 8)}` },
              () => {
                s.write(payload);
                resolve();
              },
            );
            // Never read: paused with no 'data' listener, the kernel's receive window fills and stays full.
            s.pause();
            s.on('error', () => resolve());
            hogs.push(s);
          }),
      ),
    );
    try {
      // Each probe must be answered; the bound only keeps a broken server from hanging the test.
      for (let i = 0; i < 5; i++) {
        await new Promise((r) => setTimeout(r, 500));
        const udp = readAnswer(
          await udpExchange(sandbox.dnsPort, queryPacket({ id: 100 + i, name: 'home.example.com', type: 1 }), 5000),
        );
        expect(udp.rcode).toBe(0);
        const [tcp] = await tcpExchange(
          sandbox.dnsPort,
          [queryPacket({ id: 200 + i, name: 'home.example.com', type: 1 })],
          1,
          5000,
        );
        expect(readAnswer(tcp!).rcode).toBe(0);
      }
    } finally {
      hogs.forEach((s) => {
        s.destroy();
      });
    }
  }, 60_000);
});
