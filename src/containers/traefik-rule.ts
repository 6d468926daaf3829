// The host names of a Traefik router rule (`traefik.http.routers.<r>.rule`), read as Traefik reads
// a rule: a Go-like expression of matchers (`Host(`a`)`, `PathPrefix(`/x`)`), `&&`, `||`, `!` and
// parentheses, strings in backquotes or double quotes, matcher names in any of Traefik's spellings
// (Host, host, HOST). Every Host outside a negation gives its names (v2 allowed several in one
// Host); anything else (other matchers, a negated Host) is ignored, and listed so the caller can
// say so. A rule is a container's label, so untrusted: bounded in length and depth, and a rule
// that is not one is an error, never a guess.

export interface RuleHosts {
  hosts: string[];
  /** What was left out: matcher names (`PathPrefix`, `!Host`), each once. */
  ignored: string[];
}

export class RuleError extends Error {}

/** Far above any real rule; a longer label is refused unread. */
const MAX_RULE_CHARS = 4096;
const MAX_DEPTH = 32;

type Token =
  | { kind: 'name'; text: string }
  | { kind: 'string'; text: string }
  | { kind: '(' | ')' | ',' | '&&' | '||' | '!' };

export function hostsOfRule(rule: string): RuleHosts {
  if (rule.length > MAX_RULE_CHARS) throw new RuleError(`longer than ${MAX_RULE_CHARS} characters`);
  const parser = new Parser(tokens(rule));
  parser.expression(0, false);
  if (!parser.done()) throw new RuleError('unexpected text after the rule');
  return { hosts: parser.hosts, ignored: [...parser.ignored] };
}

function tokens(rule: string): Token[] {
  const found: Token[] = [];
  let i = 0;
  while (i < rule.length) {
    const c = rule[i]!;
    if (/\s/.test(c)) i++;
    else if (rule.startsWith('&&', i) || rule.startsWith('||', i)) {
      found.push({ kind: rule.slice(i, i + 2) as '&&' | '||' });
      i += 2;
    } else if ('(),!'.includes(c)) {
      found.push({ kind: c as '(' | ')' | ',' | '!' });
      i++;
    } else if (c === '`' || c === '"') {
      const end = stringEnd(rule, i);
      found.push({ kind: 'string', text: c === '`' ? rule.slice(i + 1, end) : unquote(rule.slice(i, end + 1)) });
      i = end + 1;
    } else {
      const name = /^[A-Za-z][A-Za-z0-9]*/.exec(rule.slice(i, i + 64))?.[0];
      if (!name) throw new RuleError(`unexpected character at position ${i + 1}`);
      found.push({ kind: 'name', text: name });
      i += name.length;
    }
  }
  return found;
}

/** Where the string starting at `start` ends (its closing quote); a backslash escapes in double quotes only. */
function stringEnd(rule: string, start: number): number {
  const quote = rule[start]!;
  for (let i = start + 1; i < rule.length; i++) {
    if (quote === '"' && rule[i] === '\\') i++;
    else if (rule[i] === quote) return i;
  }
  throw new RuleError('a string is not closed');
}

function unquote(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    throw new RuleError('a string has an escape that is not one');
  }
}

class Parser {
  readonly hosts: string[] = [];
  readonly ignored = new Set<string>();
  private at = 0;

  constructor(private readonly list: Token[]) {}

  done(): boolean {
    return this.at === this.list.length;
  }

  /** expression := term (('||' | '&&') term)*; both operators keep the names of their sides. */
  expression(depth: number, negated: boolean): void {
    this.term(depth, negated);
    for (let next = this.peek(); next === '||' || next === '&&'; next = this.peek()) {
      this.at++;
      this.term(depth, negated);
    }
  }

  private term(depth: number, negated: boolean): void {
    if (depth > MAX_DEPTH) throw new RuleError(`nested deeper than ${MAX_DEPTH}`);
    const token = this.list[this.at++];
    if (!token) throw new RuleError('the rule ends too early');
    if (token.kind === '!') this.term(depth + 1, !negated);
    else if (token.kind === '(') {
      this.expression(depth + 1, negated);
      this.expect(')');
    } else if (token.kind === 'name') this.matcher(token.text, negated);
    else throw new RuleError(`a matcher was expected, not "${token.kind}"`);
  }

  private matcher(name: string, negated: boolean): void {
    this.expect('(');
    const values: string[] = [];
    if (this.peek() !== ')') {
      for (;;) {
        const value = this.list[this.at++];
        if (value?.kind !== 'string') throw new RuleError(`${name}: a quoted value was expected`);
        values.push(value.text);
        if (this.peek() !== ',') break;
        this.at++;
      }
    }
    this.expect(')');
    const isHost = name.toLowerCase() === 'host';
    if (isHost && !negated) this.hosts.push(...values);
    else this.ignored.add(isHost ? '!Host' : name);
  }

  private peek(): Token['kind'] | undefined {
    return this.list[this.at]?.kind;
  }

  private expect(kind: Token['kind']): void {
    if (this.list[this.at]?.kind !== kind) throw new RuleError(`"${kind}" was expected`);
    this.at++;
  }
}
