// What the gateway counts as it runs, for /metrics, /status and /healthz (operations.ts): the
// answers it gave (updates by zone and answer code, queries, transfers), each zone's last good
// reading from the provider, and its DNS listeners. In memory only: counters start at zero with
// each run, as Prometheus expects of a counter. Labels are bounded: a zone label is a served
// zone or "-", never a name a client chose.
import type { Answer } from '../../dns/server/listener.js';
import { decodeMessage } from '../../dns/wire/message.js';
import { rcodeName } from '../../dns/wire/types.js';
import { lowerName } from '../../lib/names.js';
import { redact } from '../../lib/redact.js';
import type { ZoneProvider } from '../../zone/provider/provider-zone.js';
import { AXFR, IXFR } from '../dns/transfer.js';
import { OPCODE_UPDATE } from '../update/message.js';
import { readUpdateHead } from '../update/head.js';

export interface ZoneReading {
  /** Milliseconds since the epoch of the last complete reading. */
  goodAt?: number;
  /** Why the last reading failed, when it did (after the last good one). */
  error?: string;
}

export class GatewayStats {
  /** `zone rcode` -> count. */
  readonly updates = new Map<string, number>();
  readonly transfers = new Map<string, number>();
  queries = 0;
  readonly readings = new Map<string, ZoneReading>();
  /** The DNS addresses answering, as shown in the log. */
  listening: string[] = [];
  /** Set at the stop: new updates are refused from then on. */
  stopping = false;

  constructor(readonly zones: string[]) {
    for (const zone of zones) this.readings.set(zone, {});
  }

  /** The provider with every reading of the zone recorded (good or failed). */
  watch(zone: string, provider: ZoneProvider, now: () => number = Date.now): ZoneProvider {
    const reading = this.readings.get(zone)!;
    return {
      ...provider,
      list: async () => {
        try {
          const live = await provider.list();
          reading.goodAt = now();
          reading.error = undefined;
          return live;
        } catch (error) {
          reading.error = redact((error as Error).message);
          throw error;
        }
      },
    };
  }

  /** Counts the answer to one message (it may still be on its way); returns it unchanged. */
  observe(
    packet: Buffer,
    opcode: number,
    transport: 'udp' | 'tcp',
    answer: Answer | Promise<Answer>,
  ): Answer | Promise<Answer> {
    const count = (result: Answer): Answer => {
      const first = Array.isArray(result) ? result[0] : result;
      if (first && first.length >= 4) this.record(packet, opcode, transport, first[3]! & 0xf);
      return result;
    };
    return answer instanceof Promise ? answer.then(count) : count(answer);
  }

  private record(packet: Buffer, opcode: number, transport: 'udp' | 'tcp', rcode: number): void {
    if (opcode === OPCODE_UPDATE) {
      bump(this.updates, `${this.served(updateZone(packet))} ${rcodeName(rcode)}`);
      return;
    }
    if (opcode !== 0) return;
    const question = transport === 'tcp' ? firstQuestion(packet) : undefined;
    if (question && (question.type === AXFR || question.type === IXFR))
      bump(this.transfers, `${this.served(question.name)} ${rcodeName(rcode)}`);
    else this.queries++;
  }

  private served(name: string | undefined): string {
    const key = name === undefined ? undefined : lowerName(name);
    return key !== undefined && this.zones.includes(key) ? key : '-';
  }
}

const bump = (map: Map<string, number>, key: string): void => void map.set(key, (map.get(key) ?? 0) + 1);

function updateZone(packet: Buffer): string | undefined {
  try {
    return readUpdateHead(packet).zone.name;
  } catch {
    return undefined;
  }
}

function firstQuestion(packet: Buffer): { name: string; type: number } | undefined {
  try {
    return decodeMessage(packet).questions[0];
  } catch {
    return undefined;
  }
}
