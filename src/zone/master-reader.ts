// RFC 1035 §5 master files into a WantedZone: $ORIGIN, $TTL, @, relative and absolute names,
// omitted owners, optional TTL and class in either order, and the rdata of the eight types
// the provider keeps. Every error names the file, line and column.
import { lexMasterFile, type Token } from './master-lexer.js';
import { absoluteName, canonicalName } from './names.js';
import { isZoneType, MAX_TTL, type ZoneType } from './record.js';
import { canonicalTarget, canonicalValue, formatCaa, ValueError } from './values.js';
import { withoutDuplicates, zoneProblem, type FileNote, type WantedRecord, type WantedZone } from './wanted-zone.js';
import { quote } from './master-writer.js';
import { ZoneFileError } from './zone-file-error.js';

export interface ReadOptions {
  /** The service: the origin until a $ORIGIN says otherwise, and the bound of every name. */
  zone: string;
  file: string;
  /** Skip records of other types (noted) instead of refusing the file. */
  skipUnsupported?: boolean;
}

const CLASSES = new Set(['IN', 'CH', 'HS', 'CS', 'ANY']);
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** `3600`, or BIND's `1h30m`; undefined when the text is not a TTL at all. */
export function parseTtl(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text);
  if (!/^(\d+[smhdw])+$/i.test(text)) return undefined;
  let total = 0;
  for (const [, n, unit] of text.toLowerCase().matchAll(/(\d+)([smhdw])/g)) total += Number(n) * UNIT_SECONDS[unit!]!;
  return total;
}

export function readMasterFile(text: string, options: ReadOptions): WantedZone {
  const { file, zone } = options;
  const at = (t: Token) => `${file}:${t.line}:${t.column}`;
  const fail = (t: Token, reason: string): never => {
    throw new ZoneFileError(file, t.line, t.column, reason);
  };
  const nameOf = (t: Token, origin: string): string => {
    if (t.quoted) fail(t, `a name cannot be quoted: "${t.text}"`);
    checkTrailingDot(t, origin, zone, fail);
    const name = canonicalName(absoluteName(t.text, origin));
    return name ?? fail(t, `"${t.text}" is not a host name`);
  };
  const ttlOf = (t: Token): number => {
    const ttl = parseTtl(t.text);
    if (ttl === undefined || ttl > MAX_TTL) fail(t, `TTL "${t.text}" is out of range (0 to ${MAX_TTL} seconds)`);
    return ttl!;
  };

  let origin = zone;
  let defaultTtl: number | undefined;
  let previousOwner: string | undefined;
  const records: WantedRecord[] = [];
  const notes: FileNote[] = [];

  for (const entry of lexMasterFile(text, file)) {
    const tokens = [...entry.tokens];
    const first = tokens[0]!;
    if (!entry.ownerOmitted && !first.quoted && first.text.startsWith('$')) {
      const directive = first.text.toUpperCase();
      const argument = tokens[1] ?? fail(first, `${directive} needs a value`);
      if (directive === '$ORIGIN') origin = nameOf(argument, origin);
      else if (directive === '$TTL') defaultTtl = ttlOf(argument);
      else fail(first, `${directive} is not supported (ddedge reads $ORIGIN and $TTL)`);
      if (tokens.length > 2) fail(tokens[2]!, `unexpected "${tokens[2]!.text}" after ${directive}`);
      continue;
    }
    let owner: string;
    if (entry.ownerOmitted) owner = previousOwner ?? fail(first, 'the first record has no owner name');
    else owner = nameOf(tokens.shift()!, origin);
    previousOwner = owner;

    let ttl: number | undefined;
    let seenClass = false;
    let typeToken: Token | undefined;
    while (tokens.length) {
      const t = tokens.shift()!;
      const upper = t.text.toUpperCase();
      if (!t.quoted && ttl === undefined && parseTtl(t.text) !== undefined) ttl = ttlOf(t);
      else if (!t.quoted && !seenClass && CLASSES.has(upper)) {
        if (upper !== 'IN') fail(t, `class ${upper} is not supported; a zone's records are class IN`);
        seenClass = true;
      } else {
        typeToken = t;
        break;
      }
    }
    if (!typeToken) fail(first, `the record for ${owner} has no type`);
    const type = typeToken!.text.toUpperCase();
    const where = at(typeToken!);
    if (type === 'SOA' || (type === 'NS' && owner === zone)) {
      notes.push({ name: owner, type, reason: `left to the provider (${type === 'SOA' ? 'SOA' : 'apex NS'})`, where });
      continue;
    }
    if (!isZoneType(type)) {
      if (options.skipUnsupported) {
        notes.push({ name: owner, type, reason: 'skipped: the provider does not keep this type (--skip-unsupported)', where });
        continue;
      }
      fail(typeToken!, `unknown or unsupported type "${typeToken!.text}" (ddedge manages ${['A', 'AAAA', 'CNAME', 'MX', 'SRV', 'TXT', 'NS', 'CAA'].join(', ')}; --skip-unsupported leaves others out)`);
    }
    const rdata = readRdata(type as ZoneType, tokens, typeToken!, origin, fail, zone);
    records.push({ name: owner, type: type as ZoneType, ttl: ttl ?? defaultTtl, ...rdata, where });
  }

  const problem = zoneProblem(zone, records, notes);
  if (problem) {
    const [line, column] = problem.where.split(':').slice(-2).map(Number);
    throw new ZoneFileError(file, line!, column!, problem.reason);
  }
  return { zone, records: withoutDuplicates(records), notes };
}

function readRdata(type: ZoneType, tokens: Token[], typeToken: Token, origin: string, fail: (t: Token, reason: string) => never, zone: string): { value: string; priority?: number } {
  const expect = (count: number, shape: string) => {
    if (tokens.length < count) fail(tokens.at(-1) ?? typeToken, `${type} needs ${shape}`);
    if (tokens.length > count && type !== 'TXT') fail(tokens[count]!, `unexpected "${tokens[count]!.text}": ${type} is ${shape}`);
  };
  const target = (t: Token) => {
    checkTrailingDot(t, origin, zone, fail);
    return t.text === '@' ? origin : t.text === '.' ? '.' : absoluteName(t.text, origin);
  };
  try {
    switch (type) {
      case 'A':
      case 'AAAA':
        expect(1, 'an address');
        return { value: canonicalValue(type, tokens[0]!.text) };
      case 'CNAME':
      case 'NS':
        expect(1, 'a host name');
        return { value: canonicalTarget(target(tokens[0]!)) };
      case 'MX': {
        expect(2, '"preference exchange"');
        const priority = number16(tokens[0]!, 'MX preference', fail);
        return { priority, value: canonicalTarget(target(tokens[1]!), 'mail server name') };
      }
      case 'SRV': {
        expect(4, '"priority weight port target"');
        const priority = number16(tokens[0]!, 'SRV priority', fail);
        const [weight, port] = [number16(tokens[1]!, 'SRV weight', fail), number16(tokens[2]!, 'SRV port', fail)];
        return { priority, value: `${weight} ${port} ${canonicalTarget(target(tokens[3]!), 'SRV target')}` };
      }
      case 'CAA': {
        expect(3, '"flag tag value"');
        const flag = tokens[0]!.text;
        if (!/^\d+$/.test(flag) || Number(flag) > 255) fail(tokens[0]!, `CAA flag "${flag}" is not a number from 0 to 255`);
        if (!/^[A-Za-z0-9]+$/.test(tokens[1]!.text)) fail(tokens[1]!, `CAA tag "${tokens[1]!.text}" is not letters and digits`);
        return { value: formatCaa(Number(flag), tokens[1]!.text, tokens[2]!.text) };
      }
      case 'TXT': {
        expect(1, 'at least one string');
        const value = tokens.map((t) => t.text).join('');
        // RFC 1035 reads each word as a string of its own, joined with nothing between: a
        // hand-typed `TXT v=spf1 mx -all` becomes "v=spf1mx-all". No one means that; a tool that
        // writes strings quotes at least one of them.
        if (tokens.length > 1 && tokens.every((t) => !t.quoted)) {
          fail(tokens[0]!, `TXT of several unquoted words is several strings joined without spaces (${quote(value)}); quote the text: ${quote(tokens.map((t) => t.text).join(' '))}`);
        }
        return { value };
      }
    }
  } catch (error) {
    if (error instanceof ValueError) fail(tokens[0] ?? typeToken, error.message);
    throw error;
  }
}

function number16(t: Token, what: string, fail: (t: Token, reason: string) => never): number {
  if (!/^\d+$/.test(t.text) || Number(t.text) > 65535) fail(t, `${what} "${t.text}" is not a number from 0 to 65535`);
  return Number(t.text);
}

/**
 * A relative name that already ends with the zone ("www.example.com" in example.com) means
 * www.example.com.example.com, as RFC 1035 reads it; no one wants that name, everyone forgets a
 * dot. Applied, it would move records under a copy of the zone and delete the originals.
 */
function checkTrailingDot(t: Token, origin: string, zone: string, fail: (t: Token, reason: string) => never): void {
  if (t.text === '@' || t.text.endsWith('.')) return;
  const name = canonicalName(t.text);
  if (name === undefined || (name !== zone && !name.endsWith(`.${zone}`))) return;
  const meant = canonicalName(absoluteName(t.text, origin)) ?? `${t.text}.${origin}`;
  const relative = origin === zone && name !== zone ? ` (or "${t.text.slice(0, -zone.length - 1)}")` : '';
  fail(t, `"${t.text}" has no trailing dot, so it means ${meant}; write "${t.text}."${relative}`);
}
