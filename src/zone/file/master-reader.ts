// RFC 1035 §5 master files into a WantedZone: $ORIGIN, $TTL, @, relative and absolute names,
// omitted owners, optional TTL and class in either order, and the rdata of the eight types
// the provider keeps. Every problem is reported with its file, line and column, all of them
// at once (the first 20 listed); an entry with a problem is left out and reading goes on.
import { MasterLexer } from './master-lexer.js';
import { masterName } from './master-names.js';
import { readRdata, type Rdata, type RdataContext } from './master-rdata.js';
import { isZoneType, MAX_TTL, ZONE_TYPES } from '../record.js';
import { ValueError } from '../values.js';
import { atOrBelow } from '../../lib/names.js';
import { type FileRecordClass, fileRecordsOf, WantedZoneBuilder, type WantedZone } from '../wanted-zone.js';
import { FileProblems, shown, ZoneFileError } from '../zone-file-error.js';

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
function parseTtl(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text);
  if (!/^(\d+[smhdw])+$/i.test(text)) return undefined;
  let total = 0;
  for (const [, n, unit] of text.toLowerCase().matchAll(/(\d+)([smhdw])/g)) total += Number(n) * UNIT_SECONDS[unit!]!;
  return total;
}

/** Types as written, in either case, to their name: no upper-casing per record. */
const TYPE_OF = new Map<string, string>();
for (const type of [...ZONE_TYPES, 'SOA']) {
  TYPE_OF.set(type, type);
  TYPE_OF.set(type.toLowerCase(), type);
}

/** Thrown to leave an entry once its problem is reported; not an Error, so no stack is built. */
const SKIP = Symbol('skip the entry');
/** The previous owner when the entry that named it was left out: records under it are skipped too. */
const UNKNOWN_OWNER = Symbol('unknown owner');

export function readMasterFile(text: string, options: ReadOptions): WantedZone {
  return new MasterFileReader(text, options).read();
}

/**
 * The first $ORIGIN of a master file: the zone it is about when none is given. It is read as
 * the reader reads it (a `$ORIGIN` in a comment, after a CR or not, is no directive), and with
 * or without its final dot. A name the provider could not hold is a ZoneFileError: it would
 * become a path under the state directory.
 */
export function masterFileOrigin(text: string, file: string): string | undefined {
  const lx = new MasterLexer(text, new FileProblems(file));
  while (lx.next()) {
    if (lx.broken || lx.ownerOmitted || lx.isQuoted(0) || lx.raw(0).toUpperCase() !== '$ORIGIN') continue;
    if (lx.count < 2) return undefined;
    const written = lx.raw(1);
    try {
      return masterName(written.endsWith('.') ? written : `${written}.`, '', '');
    } catch (error) {
      if (!(error instanceof ValueError)) throw error;
      throw new ZoneFileError(file, [
        {
          line: lx.lineOf(1),
          column: lx.columnOf(1),
          reason: `$ORIGIN ${shown(written)} cannot name the zone: ${error.message}`,
        },
      ]);
    }
  }
  return undefined;
}

/** Past this many lines, the records' array grows as they come (a file of comments is not a zone of that many). */
const MAX_RESERVED_RECORDS = 1_000_000;

function linesIn(text: string): number {
  let lines = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

class MasterFileReader implements RdataContext {
  readonly lexer: MasterLexer;
  private readonly problems: FileProblems;
  private readonly wanted: WantedZoneBuilder;
  private readonly zone: string;
  private readonly file: string;
  private readonly recordClass: FileRecordClass;
  private origin: string;
  private defaultTtl: number | undefined;
  // What tells a file in BIND's canonical form (bind-form in wanted-zone.ts): a `$TTL` seen,
  // the SOA's own TTL, the apex NS targets inside the zone.
  private sawTtlDirective = false;
  private soaTtl: number | undefined;
  private readonly nameServers = new Set<string>();
  /** The first $ORIGIN outside the zone, where it was written; said once when names outside the zone follow. */
  private originOutside: { line: number; column: number; origin: string } | undefined;
  private outsideFromOrigin = false;
  private previousOwner: string | typeof UNKNOWN_OWNER | undefined;
  // The last owner read: the next record often has the same one.
  private lastOwnerWritten = '';
  private lastOwnerOrigin = '';
  private lastOwner = '';
  private readonly rdata: Rdata = { value: '', priority: undefined };

  constructor(
    text: string,
    private readonly options: ReadOptions,
  ) {
    this.zone = options.zone;
    this.file = options.file;
    this.recordClass = fileRecordsOf(options.file);
    this.origin = options.zone;
    this.problems = new FileProblems(options.file);
    this.lexer = new MasterLexer(text, this.problems);
    // A record takes a line at least: the lines bound the records, and their array is made once at that length.
    this.wanted = new WantedZoneBuilder(options.zone, Math.min(linesIn(text), MAX_RESERVED_RECORDS));
  }

  read(): WantedZone {
    const lx = this.lexer;
    while (!this.problems.full && lx.next()) {
      try {
        if (lx.broken) this.skipBroken();
        else if (!lx.ownerOmitted && !lx.isQuoted(0) && lx.raw(0).startsWith('$')) this.directive();
        else this.record();
      } catch (error) {
        if (error !== SKIP) throw error;
      }
    }
    if (this.outsideFromOrigin) {
      // Said first (its line comes first), whatever else was found: the likely cause of a screen of names outside.
      const { line, column, origin } = this.originOutside!;
      this.problems.addListed(
        line,
        column,
        `$ORIGIN ${origin}. is outside the zone ${this.zone}, and so are the names made from it: is the zone ` +
          `(--service, DDEDGE_SERVICE) right? For the zone of this file give --service ${origin}`,
      );
    }
    this.problems.throwIfAny();
    const bindForm = this.soaTtl !== undefined && !this.sawTtlDirective;
    return this.wanted.result(bindForm ? { defaultTtl: this.soaTtl!, nameServers: this.nameServers } : undefined);
  }

  fail(k: number, reason: string): never {
    this.problems.add(this.lexer.lineOf(k), this.lexer.columnOf(k), reason);
    throw SKIP;
  }

  target(k: number, what: string): string {
    if (!this.lexer.isQuoted(k) && this.lexer.raw(k) === '.') return '.';
    const name = this.name(k);
    if (name.includes('*')) this.fail(k, `${shown(this.lexer.raw(k))} is not a ${what}`);
    return name;
  }

  /** An entry the lexer found wrong (and reported): only its owner is kept, for the lines after it. */
  private skipBroken(): void {
    const lx = this.lexer;
    if (lx.ownerOmitted || lx.raw(0).startsWith('$')) return;
    try {
      this.previousOwner = lx.isQuoted(0) ? UNKNOWN_OWNER : masterName(lx.raw(0), this.origin, this.zone);
    } catch {
      this.previousOwner = UNKNOWN_OWNER;
    }
  }

  private directive(): void {
    const lx = this.lexer;
    const written = lx.raw(0);
    const directive = written.toUpperCase();
    const named = /^\$[A-Z]+$/.test(directive) ? directive : shown(written);
    if (directive !== '$ORIGIN' && directive !== '$TTL')
      this.fail(0, `${named} is not supported (ddedge reads $ORIGIN and $TTL)`);
    if (lx.count < 2) this.fail(0, `${directive} needs a value`);
    if (lx.count > 2) this.fail(2, `unexpected ${shown(lx.raw(2))} after ${directive}`);
    if (directive === '$ORIGIN') {
      this.origin = this.name(1);
      if (!this.originOutside && !atOrBelow(this.origin, this.zone))
        this.originOutside = { line: lx.lineOf(1), column: lx.columnOf(1), origin: this.origin };
    } else {
      this.defaultTtl = this.ttl(1);
      this.sawTtlDirective = true;
    }
  }

  /** The record's owner: the one written, or the previous record's when it is left out. */
  private recordOwner(): string {
    if (this.lexer.ownerOmitted) {
      if (this.previousOwner === UNKNOWN_OWNER) throw SKIP;
      return this.previousOwner ?? this.fail(0, 'the first record has no owner name');
    }
    this.previousOwner = UNKNOWN_OWNER;
    const owner = this.owner();
    this.previousOwner = owner;
    return owner;
  }

  private record(): void {
    const lx = this.lexer;
    const count = lx.count;
    const owner = this.recordOwner();
    let k = lx.ownerOmitted ? 0 : 1;

    let ttl: number | undefined;
    let seenClass = false;
    for (; k < count && !lx.isQuoted(k); k++) {
      if (ttl === undefined) {
        ttl = this.ttlOrUndefined(k);
        if (ttl !== undefined) continue;
      }
      const written = lx.raw(k);
      if (seenClass || written.length > 3 || !CLASSES.has(written.toUpperCase())) break;
      if (written.toUpperCase() !== 'IN')
        this.fail(k, `class ${written.toUpperCase()} is not supported; a zone's records are class IN`);
      seenClass = true;
    }
    if (k >= count) this.fail(0, `the record for ${owner} has no type`);
    const written = lx.raw(k);
    const type = lx.isQuoted(k) ? `"${written}"` : (TYPE_OF.get(written) ?? written.toUpperCase());
    if (type === 'SOA' || (type === 'NS' && owner === this.zone)) {
      if (type === 'SOA') this.soaTtl ??= ttl;
      else this.noteNameServer(k + 1);
      this.check(
        k,
        this.wanted.addNote({
          name: owner,
          type,
          reason: `left to the provider (${type === 'SOA' ? 'SOA' : 'apex NS'})`,
          where: this.where(k),
        }),
      );
      return;
    }
    if (!isZoneType(type)) {
      if (!this.options.skipUnsupported) {
        this.fail(
          k,
          `unknown or unsupported type ${shown(written)} (ddedge manages ${ZONE_TYPES.join(', ')}; ` +
            `--skip-unsupported leaves others out)`,
        );
      }
      this.check(
        k,
        this.wanted.addNote({
          name: owner,
          type,
          reason: 'skipped: the provider does not keep this type (--skip-unsupported)',
          where: this.where(k),
        }),
      );
      return;
    }
    readRdata(type, k + 1, this, this.rdata);
    const record = new this.recordClass(
      owner,
      type,
      ttl ?? this.defaultTtl,
      this.rdata.priority,
      this.rdata.value,
      lx.lineOf(k),
      lx.columnOf(k),
    );
    const problem = this.wanted.addRecord(record);
    if (problem !== undefined && this.originOutside && !atOrBelow(owner, this.zone)) this.outsideFromOrigin = true;
    this.check(k, problem);
  }

  /** An apex NS target inside the zone; its rdata is the provider's, so a bad one is no problem of the file. */
  private noteNameServer(k: number): void {
    if (k >= this.lexer.count || this.lexer.isQuoted(k)) return;
    try {
      const target = masterName(this.lexer.raw(k), this.origin, this.zone);
      if (atOrBelow(target, this.zone)) this.nameServers.add(target);
    } catch (error) {
      if (!(error instanceof ValueError)) throw error;
    }
  }

  private where(k: number): string {
    return `${this.file}:${this.lexer.lineOf(k)}:${this.lexer.columnOf(k)}`;
  }

  private check(k: number, problem: string | undefined): void {
    if (problem !== undefined) this.fail(k, problem);
  }

  private owner(): string {
    const written = this.lexer.raw(0);
    if (written === this.lastOwnerWritten && this.origin === this.lastOwnerOrigin && !this.lexer.isQuoted(0))
      return this.lastOwner;
    const owner = this.name(0);
    this.lastOwnerWritten = written;
    this.lastOwnerOrigin = this.origin;
    this.lastOwner = owner;
    return owner;
  }

  private name(k: number): string {
    const lx = this.lexer;
    if (lx.isQuoted(k)) this.fail(k, `a name cannot be quoted: ${shown(lx.raw(k))}`);
    try {
      return masterName(lx.raw(k), this.origin, this.zone);
    } catch (error) {
      if (error instanceof ValueError) this.fail(k, error.message);
      throw error;
    }
  }

  /** The TTL token k holds, or undefined when it is no TTL; out of range fails. */
  private ttlOrUndefined(k: number): number | undefined {
    const lx = this.lexer;
    const digits = lx.digits(k);
    const ttl = digits >= 0 ? digits : lx.startsWithDigit(k) ? parseTtl(lx.raw(k)) : undefined;
    if (ttl !== undefined && ttl > MAX_TTL)
      this.fail(k, `TTL ${shown(lx.raw(k))} is out of range (0 to ${MAX_TTL} seconds)`);
    return ttl;
  }

  private ttl(k: number): number {
    return (
      this.ttlOrUndefined(k) ??
      this.fail(k, `TTL ${shown(this.lexer.raw(k))} is out of range (0 to ${MAX_TTL} seconds)`)
    );
  }
}
