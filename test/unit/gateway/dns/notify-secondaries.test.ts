// NOTIFY to a secondary: the SOA question with AA set and the new SOA, sent again until the
// secondary answers with this NOTIFY's ID and opcode, at most five times.
import { createSocket, type Socket } from 'node:dgram';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OPCODE_NOTIFY, sendNotify } from '../../../../src/gateway/dns/notify-secondaries.js';
import { decodeMessage, encodeMessage } from '../../../../src/dns/wire/message.js';
import type { DnsRecord } from '../../../../src/dns/wire/types.js';
import { silentLogger, type Logger } from '../../../../src/lib/log.js';

const soa: DnsRecord & { type: 'SOA' } = {
  name: 'example.com',
  type: 'SOA',
  ttl: 300,
  value: {
    mname: 'ns1.example.com',
    rname: 'hostmaster.example.com',
    serial: 2026010101,
    refresh: 3600,
    retry: 600,
    expire: 604800,
    minimum: 300,
  },
};

/** A secondary on 127.0.0.1: `answer` decides what (if anything) it sends back to each packet. */
async function secondary(
  answer: (packet: Buffer) => Buffer[],
): Promise<{ port: number; received: Buffer[]; socket: Socket }> {
  const socket = createSocket('udp4');
  const received: Buffer[] = [];
  socket.on('message', (packet, from) => {
    received.push(packet);
    for (const reply of answer(packet)) socket.send(reply, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { port: socket.address().port, received, socket };
}

/** Resolves once the secondary holds `count` packets (an event, not a clock: the timers here are fake). */
function received(peer: { received: Buffer[]; socket: Socket }, count: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () =>
      peer.received.length >= count ? resolve() : peer.socket.once('message', () => setImmediate(check));
    check();
  });
}

const sockets: Socket[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const socket of sockets.splice(0)) socket.close();
});

describe('sendNotify', () => {
  it('sends the SOA question and answer with AA set, and resolves true on the acknowledgement', async () => {
    const peer = await secondary((packet) => {
      const id = packet.readUInt16BE(0);
      // A stray answer first (another ID), then the acknowledgement.
      return [
        encodeMessage({ id: (id + 1) & 0xffff, response: true, opcode: OPCODE_NOTIFY, questions: [] }),
        encodeMessage({ id, response: true, opcode: OPCODE_NOTIFY, questions: [] }),
      ];
    });
    sockets.push(peer.socket);
    expect(await sendNotify({ host: '127.0.0.1', port: peer.port }, soa, silentLogger)).toBe(true);
    const sent = decodeMessage(peer.received[0]!);
    expect(sent).toMatchObject({ response: false, opcode: OPCODE_NOTIFY, authoritative: true });
    expect(sent.questions).toEqual([{ name: 'example.com', type: 6, class: 1 }]);
    expect(sent.answers).toEqual([
      expect.objectContaining({ type: 'SOA', value: expect.objectContaining({ serial: 2026010101 }) }),
    ]);
  });

  it('sends five times, 2 s apart, to a secondary that never answers, then says so: false', async () => {
    // A query answer (opcode 0) with the right ID is not an acknowledgement.
    const peer = await secondary((packet) => [
      encodeMessage({ id: packet.readUInt16BE(0), response: true, opcode: 0, questions: [] }),
    ]);
    sockets.push(peer.socket);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const warnings: string[] = [];
    const logger: Logger = { ...silentLogger, warn: (m) => void warnings.push(m) };
    const acknowledged = sendNotify({ host: '127.0.0.1', port: peer.port }, soa, logger);
    for (let sent = 1; sent <= 5; sent++) {
      await received(peer, sent);
      expect(peer.received).toHaveLength(sent);
      await vi.advanceTimersByTimeAsync(2_000);
    }
    expect(await acknowledged).toBe(false);
    expect(peer.received).toHaveLength(5);
    expect(warnings).toEqual([
      `gateway: 127.0.0.1:${peer.port} did not acknowledge the NOTIFY for example.com ` +
        '(serial 2026010101) after 5 tries',
    ]);
  });

  it('names an IPv6 secondary as [ADDR]:PORT', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const warnings: string[] = [];
    const logger: Logger = { ...silentLogger, warn: (m) => void warnings.push(m) };
    // Nothing listens there (port 9, discard, on this machine's loopback): no acknowledgement ever comes.
    const acknowledged = sendNotify({ host: '::1', port: 9 }, soa, logger);
    for (let sent = 1; sent <= 5; sent++) await vi.advanceTimersByTimeAsync(2_000);
    expect(await acknowledged).toBe(false);
    expect(warnings).toEqual([
      'gateway: [::1]:9 did not acknowledge the NOTIFY for example.com (serial 2026010101) after 5 tries',
    ]);
  });
});
