// NOTIFY (RFC 1996) to the secondaries named with --notify, after each change of a zone the
// gateway made or saw at a refresh: the SOA question, AA set, the new SOA in the answer section.
// Over UDP, sent again every 2 s until the secondary answers, at most 5 times (section 3.6).
// A secondary that never answers is logged, never waited on by an update.
import { createSocket } from 'node:dgram';
import { isIP } from 'node:net';
import { randomInt } from 'node:crypto';
import { encodeMessage } from '../../dns/wire/message.js';
import type { DnsRecord } from '../../dns/wire/types.js';
import type { Logger } from '../../lib/log.js';
import { hostPort } from '../../lib/host-port.js';

export const OPCODE_NOTIFY = 4;
const ATTEMPTS = 5;
const RESEND_MS = 2_000;

export interface NotifyTarget {
  host: string;
  port: number;
}

/** Resolves true once `target` acknowledged, false after the last attempt. */
export function sendNotify(target: NotifyTarget, soa: DnsRecord & { type: 'SOA' }, logger: Logger): Promise<boolean> {
  const id = randomInt(0x10000);
  const packet = encodeMessage({
    id,
    opcode: OPCODE_NOTIFY,
    authoritative: true,
    questions: [{ name: soa.name, type: 6, class: 1 }],
    answers: [soa],
  });
  const socket = createSocket(isIP(target.host) === 6 ? 'udp6' : 'udp4');
  return new Promise((resolve) => {
    let attempts = 0;
    let timer: NodeJS.Timeout | undefined;
    const done = (acknowledged: boolean) => {
      clearTimeout(timer);
      socket.close();
      if (!acknowledged)
        logger.warn(
          `gateway: ${hostPort(target.host, target.port)} did not acknowledge the NOTIFY for ${soa.name} (serial ` +
            `${soa.value.serial}) after ${ATTEMPTS} tries`,
        );
      resolve(acknowledged);
    };
    socket.on('error', () => undefined);
    // A NOTIFY never keeps a stopping gateway alive.
    socket.unref();
    socket.on('message', (answer) => {
      // Only the answer to this NOTIFY counts: our ID, a response, opcode NOTIFY.
      if (
        answer.length >= 12 &&
        answer.readUInt16BE(0) === id &&
        answer[2]! & 0x80 &&
        ((answer[2]! >> 3) & 0xf) === OPCODE_NOTIFY
      )
        done(true);
    });
    const send = () => {
      if (attempts++ >= ATTEMPTS) return done(false);
      socket.send(packet, target.port, target.host);
      timer = setTimeout(send, RESEND_MS);
      timer.unref();
    };
    send();
  });
}
