// The shapes the DNS client returns and the sandbox's name server builds. One record type is
// one member of a union on `type`, so `if (r.type === 'TXT') r.value.join('')` type-checks.
//
// Names are written without the trailing dot, in the case the packet carried them (compare
// them with lib/names.ts's `sameName`); the root is the empty string. Inside a label, a dot is written `\.`, a
// backslash `\\`, and bytes outside printable ASCII, the space and `"$();@` as `\DDD`, as dig
// does, so a name read from a packet can be written back exactly.

/** Record types by number (RFC 1035, 3596, 2782, 8659, 6891). */
export const TYPE_CODES = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  SRV: 33,
  OPT: 41,
  CAA: 257,
  ANY: 255,
} as const;
type KnownType = keyof typeof TYPE_CODES;
/** A type the client may ask for. */
export type DnsType = Exclude<KnownType, 'OPT'>;
export const CLASS_IN = 1;

export interface SoaValue {
  /** The primary name server. */
  mname: string;
  /** The administrator's mailbox, written as a name (`hostmaster.example.com`). */
  rname: string;
  serial: number;
  refresh: number;
  retry: number;
  expire: number;
  /** The TTL of negative answers (RFC 2308). */
  minimum: number;
}
interface MxValue {
  preference: number;
  exchange: string;
}
interface SrvValue {
  priority: number;
  weight: number;
  port: number;
  target: string;
}
interface CaaValue {
  flags: number;
  tag: string;
  value: string;
}

interface Rr<T extends string, V> {
  name: string;
  type: T;
  ttl: number;
  value: V;
}

/**
 * One resource record as read from (or written to) a packet:
 * - A, AAAA: the address as text (IPv6 in RFC 5952 form);
 * - CNAME, NS, PTR: the target name;
 * - TXT: its character-strings, in order (join them for the text; each is at most 255 bytes, decoded as UTF-8);
 * - MX, SRV, SOA, CAA: the objects above;
 * - OPT (EDNS, only in `additional`): its option data in hex (the UDP size is `DnsMessage.ednsUdpSize`);
 * - any other type, as `TYPE<number>`: its data in hex (RFC 3597).
 */
export type DnsRecord =
  | Rr<'A' | 'AAAA' | 'CNAME' | 'NS' | 'PTR', string>
  | Rr<'TXT', string[]>
  | Rr<'MX', MxValue>
  | Rr<'SRV', SrvValue>
  | Rr<'SOA', SoaValue>
  | Rr<'CAA', CaaValue>
  | Rr<'OPT', string>
  | Rr<`TYPE${number}`, string>;

export interface DnsQuestion {
  name: string;
  type: number;
  class: number;
}

/** A decoded message. Header bits are kept as booleans; rcode is the 4-bit header code. */
export interface DnsMessage {
  id: number;
  response: boolean;
  opcode: number;
  authoritative: boolean;
  truncated: boolean;
  recursionDesired: boolean;
  recursionAvailable: boolean;
  rcode: number;
  questions: DnsQuestion[];
  answers: DnsRecord[];
  authority: DnsRecord[];
  additional: DnsRecord[];
  /** The requester's EDNS UDP payload size when the message carries an OPT record. */
  ednsUdpSize?: number;
}

/** What `queryDns` resolves to. `rcode`: 0 NOERROR, 2 SERVFAIL, 3 NXDOMAIN, 5 REFUSED (see RCODE). */
export interface DnsAnswer {
  rcode: number;
  authoritative: boolean;
  /** Still set when the TCP retry also came back truncated (or TCP was not allowed). */
  truncated: boolean;
  answers: DnsRecord[];
  authority: DnsRecord[];
  additional: DnsRecord[];
  /** How the answer came: `udp`, or `tcp` after a truncated UDP answer. */
  transport: 'udp' | 'tcp';
}

export const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;

/** The names of the update's answer codes (RFC 2136 2.2), for logs: "RCODE9" told a reader nothing. */
const UPDATE_RCODE_NAMES: Record<number, string> = {
  6: 'YXDOMAIN',
  7: 'YXRRSET',
  8: 'NXRRSET',
  9: 'NOTAUTH',
  10: 'NOTZONE',
};

export function rcodeName(rcode: number): string {
  return Object.entries(RCODE).find(([, code]) => code === rcode)?.[0] ?? UPDATE_RCODE_NAMES[rcode] ?? `RCODE${rcode}`;
}

export function typeName(code: number): DnsRecord['type'] | 'ANY' {
  const known = Object.entries(TYPE_CODES).find(([, c]) => c === code)?.[0] as KnownType | undefined;
  return known ?? `TYPE${code}`;
}

export interface DnsServer {
  host: string;
  port: number;
}
