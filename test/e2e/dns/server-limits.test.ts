// The name server's limits, against the built `ddedge sandbox --dns-port` (the same listener and
// responder serve the gateway): UDP answers that cannot amplify (512 bytes for a client not
// verified by a cookie, the EDNS size for one that is, TC beyond), ANY answered minimally over
// UDP, BADVERS, a burst right after start, and TCP clients that idle or drip bytes never keeping
// a real query out. Real dig where it is installed; small Node clients for the raw bytes.
import { execFile } from 'node:child_process';
import { createSocket } from 'node:dgram';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseEnv, startDist, tempDir, waitForOutput } from '../../helpers/cli.js';
import { requireTool } from '../../helpers/programs.js';
import { queryPacket, readAnswer, tcpExchange, udpExchange } from '../../helpers/dns-wire.js';

const DIG = requireTool('dig', 'bind9-dnsutils');

const TXT = 16;
let sandbox: { child: ReturnType<typeof startDist>; apiUrl: string; dnsPort: number };

async function startSandbox() {
  const child = startDist(['sandbox', '--port', '0', '--dns-port', '0', '--json'], baseEnv());
  const line = await waitForOutput(child, 'stdout', (t) => t.includes('\n'));
  const started = JSON.parse(line) as { apiUrl: string; dnsPort: number };
  return { child, apiUrl: started.apiUrl, dnsPort: started.dnsPort };
}

function dig(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      'dig',
      ['@127.0.0.1', '-p', String(sandbox.dnsPort), '+norec', '+time=3', '+tries=1', ...args],
      { timeout: 10_000 },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    ),
  );
}

beforeAll(async () => {
  sandbox = await startSandbox();
  // A TXT of 1,000 bytes in four strings: more than 512 bytes, less than 1232.
  const body = new URLSearchParams({
    apiuser: 'demo-user',
    apipasswd: 'demo-api-password',
    serviceName: 'example.com',
    name: 'big.example.com',
    type: 'TXT',
    value: 'x'.repeat(1000),
  });
  const answer = (await (await fetch(`${sandbox.apiUrl}/service/dnscreate/`, { method: 'POST', body })).json()) as {
    success: boolean;
  };
  expect(answer.success).toBe(true);
});
afterAll(() => {
  sandbox?.child.kill('SIGTERM');
});

describe('UDP answers that cannot amplify', () => {
  it('gives a client without a verified cookie at most 512 bytes, whatever EDNS size it asks for, with TC', async () => {
    for (const shape of [{}, { edns: 4096 }, { edns: 4096, cookie: Buffer.from('0123456789abcdef', 'hex') }]) {
      const bytes = await udpExchange(sandbox.dnsPort, queryPacket({ name: 'big.example.com', type: TXT, ...shape }));
      expect(bytes.length, JSON.stringify(shape)).toBeLessThanOrEqual(512);
      expect(readAnswer(bytes).truncated).toBe(true);
    }
  });

  it('gives a client that returns its server cookie its EDNS size, and TCP the whole answer', async () => {
    const client = Buffer.from('0011223344556677', 'hex');
    const first = readAnswer(
      await udpExchange(sandbox.dnsPort, queryPacket({ name: 'example.com', type: 6, edns: 1232, cookie: client })),
    );
    expect(first.cookie?.subarray(0, 8)).toEqual(client);
    expect(first.cookie!.length).toBeGreaterThanOrEqual(16);
    const verified = await udpExchange(
      sandbox.dnsPort,
      queryPacket({ name: 'big.example.com', type: TXT, edns: 1232, cookie: first.cookie! }),
    );
    expect(verified.length).toBeGreaterThan(512);
    expect(verified.length).toBeLessThanOrEqual(1232);
    expect(readAnswer(verified).answers[0]!.value).toEqual([
      'x'.repeat(255),
      'x'.repeat(255),
      'x'.repeat(255),
      'x'.repeat(235),
    ]);
    // Another address's cookie (a forged one) is not verified.
    const forged = Buffer.concat([client, Buffer.alloc(16, 7)]);
    expect(
      readAnswer(
        await udpExchange(
          sandbox.dnsPort,
          queryPacket({ name: 'big.example.com', type: TXT, edns: 1232, cookie: forged }),
        ),
      ).truncated,
    ).toBe(true);
    const [overTcp] = await tcpExchange(sandbox.dnsPort, [queryPacket({ name: 'big.example.com', type: TXT })]);
    expect(readAnswer(overTcp!).answers).toHaveLength(1);
  });

  it('answers a malformed cookie with FORMERR and EDNS version 1 with BADVERS', async () => {
    expect(
      readAnswer(
        await udpExchange(
          sandbox.dnsPort,
          queryPacket({ name: 'example.com', type: 1, edns: 1232, cookie: Buffer.alloc(5) }),
        ),
      ).rcode,
    ).toBe(1);
    const badvers = await udpExchange(
      sandbox.dnsPort,
      queryPacket({ name: 'example.com', type: 1, edns: 1232, ednsVersion: 1 }),
    );
    const message = readAnswer(badvers);
    const opt = message.additional.find((r) => r.type === 'OPT')!;
    expect(((opt.ttl >>> 24) << 4) | message.rcode).toBe(16);
  });

  it.skipIf(!DIG)(
    'answers ANY over UDP with one RRset (RFC 8482), and with all of them over TCP (dig 9.18 asks ANY over TCP unless +notcp)',
    async () => {
      const overUdp = (await dig('+notcp', '+noall', '+answer', 'example.com', 'ANY')).split('\n').filter(Boolean);
      const types = new Set(overUdp.map((line) => line.split(/\s+/)[3]));
      expect(types.size).toBe(1);
      const overTcp = (await dig('+tcp', '+noall', '+answer', 'example.com', 'ANY')).split('\n').filter(Boolean);
      expect(new Set(overTcp.map((line) => line.split(/\s+/)[3])).size).toBeGreaterThanOrEqual(4);
    },
  );

  it.skipIf(!DIG)('gives dig a long answer through its TCP retry, and BADVERS to +edns=1', async () => {
    const text = await dig('+noall', '+answer', 'big.example.com', 'TXT');
    expect(text).toContain('x'.repeat(255));
    expect(await dig('+edns=1', '+noednsnegotiation', 'example.com', 'A')).toMatch(/status: BADVERS/);
  });
});

/** Sends every packet at once over one UDP socket; the IDs answered (stops when all are; 30 s only bounds a broken server). */
async function answeredIds(port: number, packets: Buffer[]): Promise<Set<number>> {
  const socket = createSocket('udp4');
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', () => r()));
  const ids = new Set<number>();
  const done = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 30_000);
    socket.on('message', (m) => {
      ids.add(m.readUInt16BE(0));
      if (ids.size === packets.length) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  for (const packet of packets) socket.send(packet, port, '127.0.0.1');
  await done;
  socket.close();
  return ids;
}

describe('a burst right after start', () => {
  it('answers every one of 200 queries sent at once to a sandbox that has answered nothing yet', async () => {
    const fresh = await startSandbox();
    try {
      const packets = Array.from({ length: 200 }, (_, id) =>
        queryPacket({ id, name: 'example.com', type: 1, edns: 1232 }),
      );
      expect((await answeredIds(fresh.dnsPort, packets)).size).toBe(200);
    } finally {
      fresh.child.kill('SIGTERM');
    }
  });
});

describe('a burst right after the first answer (dnsperf -q 32 once got 0 of 32)', () => {
  it('answers every one of 32 UDP queries sent at once just after answering its first', async () => {
    const fresh = await startSandbox();
    try {
      expect(
        readAnswer(await udpExchange(fresh.dnsPort, queryPacket({ id: 1, name: 'example.com', type: 6 }))).answers[0]
          ?.type,
      ).toBe('SOA');
      const names = ['example.com', 'www.example.com', 'nope.example.com', 'home.example.com'];
      const packets = Array.from({ length: 32 }, (_, i) =>
        queryPacket({ id: 100 + i, name: names[(100 + i) % 4]!, type: 1 }),
      );
      expect((await answeredIds(fresh.dnsPort, packets)).size).toBe(32);
    } finally {
      fresh.child.kill('SIGTERM');
    }
  });

  it.skipIf(!requireTool('dnsperf', 'dnsperf'))(
    'answers all 32 of dnsperf -q 32 run right after the first answer',
    async () => {
      const fresh = await startSandbox();
      try {
        expect(
          readAnswer(await udpExchange(fresh.dnsPort, queryPacket({ id: 1, name: 'example.com', type: 6 }))).answers[0]
            ?.type,
        ).toBe('SOA');
        const file = join(tempDir(), 'queries.txt');
        writeFileSync(
          file,
          Array.from(
            { length: 32 },
            (_, i) => ['example.com A', 'www.example.com A', 'nope.example.com A', 'example.com TXT'][i % 4],
          ).join('\n') + '\n',
        );
        const out = await new Promise<string>((resolve) =>
          execFile(
            'dnsperf',
            ['-s', '127.0.0.1', '-p', String(fresh.dnsPort), '-d', file, '-q', '32', '-n', '1', '-t', '3'],
            { timeout: 20_000 },
            (_e, stdout) => resolve(stdout),
          ),
        );
        expect(out).toMatch(/Queries completed:\s+32 /);
      } finally {
        fresh.child.kill('SIGTERM');
      }
    },
  );
});

describe('TCP clients that idle or drip bytes', () => {
  /** Opens `n` connections; with `dripMs`, each sends one byte of a never-finished message every dripMs. */
  async function hog(n: number, dripMs?: number): Promise<() => void> {
    const sockets: net.Socket[] = [];
    const timers: NodeJS.Timeout[] = [];
    await Promise.all(
      Array.from(
        { length: n },
        () =>
          new Promise<void>((resolve) => {
            const s = net.connect(sandbox.dnsPort, '127.0.0.1', () => resolve());
            s.on('error', () => resolve());
            sockets.push(s);
            if (dripMs) timers.push(setInterval(() => s.writable && s.write(Buffer.from([0x01])), dripMs));
          }),
      ),
    );
    return () => {
      timers.forEach(clearInterval);
      sockets.forEach((s) => {
        s.destroy();
      });
    };
  }

  it('answers real queries while 70 connections drip a byte every 3 s', async () => {
    const stop = await hog(70, 3000);
    try {
      for (let i = 0; i < 10; i++) {
        const [answer] = await tcpExchange(sandbox.dnsPort, [queryPacket({ id: i, name: 'example.com', type: 6 })]);
        expect(readAnswer(answer!).answers[0]!.type).toBe('SOA');
      }
    } finally {
      stop();
    }
  });

  it('answers real queries while 300 connections sit idle', async () => {
    const stop = await hog(300);
    try {
      for (let i = 0; i < 10; i++) {
        const [answer] = await tcpExchange(sandbox.dnsPort, [queryPacket({ id: i, name: 'www.example.com', type: 1 })]);
        expect(readAnswer(answer!).rcode).toBe(0);
      }
    } finally {
      stop();
    }
  });

  it('closes a connection whose message does not come whole within seconds', async () => {
    const closed = await new Promise<boolean>((resolve) => {
      const s = net.connect(sandbox.dnsPort, '127.0.0.1', () => s.write(Buffer.from([0x0f, 0xff])));
      const drip = setInterval(() => s.writable && s.write(Buffer.from([0x01])), 500);
      const timer = setTimeout(() => {
        clearInterval(drip);
        s.destroy();
        resolve(false);
      }, 12_000);
      s.on('close', () => {
        clearInterval(drip);
        clearTimeout(timer);
        resolve(true);
      });
      s.on('error', () => undefined);
    });
    expect(closed).toBe(true);
  });
});
