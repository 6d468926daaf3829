// A strict reader of the Prometheus text exposition format (0.0.4), for tests: it throws,
// naming the line, on anything the format forbids — a second TYPE or HELP for a family, a
// TYPE after the family's samples, a family split in two, a label value with a bad escape or
// an unescaped quote or newline, a repeated label, a duplicate series, a value that is not a
// number, a missing final newline.

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type?: string;
  help?: string;
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES: Record<string, string[]> = {
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['_sum', '_count', ''],
};

export function parsePrometheusText(text: string): Map<string, Family> {
  if (text.length && !text.endsWith('\n')) throw new Error('the exposition must end with a newline');
  const families = new Map<string, Family>();
  const closed = new Set<string>();
  const series = new Set<string>();
  let current: string | undefined;
  const lines = text.split('\n').slice(0, -1);
  const enter = (name: string, lineNo: number): Family => {
    if (current !== name) {
      if (current) closed.add(current);
      if (closed.has(name)) throw new Error(`line ${lineNo}: family ${name} appears again after other families`);
      current = name;
    }
    let family = families.get(name);
    if (!family) {
      family = { name, samples: [] };
      families.set(name, family);
    }
    return family;
  };
  lines.forEach((line, index) => {
    const lineNo = index + 1;
    if (line.trim() === '') return;
    if (line.startsWith('#')) {
      const meta = /^#\s+(HELP|TYPE)\s+(\S+)(?:\s(.*))?$/.exec(line);
      if (!meta) return; // a comment
      const [, kind, name, rest = ''] = meta;
      if (!METRIC_NAME.test(name!) || METRIC_NAME.exec(name!)![0] !== name)
        throw new Error(`line ${lineNo}: bad metric name ${name}`);
      const family = enter(name!, lineNo);
      if (kind === 'HELP') {
        if (family.help !== undefined) throw new Error(`line ${lineNo}: a second HELP for ${name}`);
        family.help = unescapeText(rest, false, lineNo);
      } else {
        if (family.type !== undefined) throw new Error(`line ${lineNo}: a second TYPE for ${name}`);
        if (family.samples.length) throw new Error(`line ${lineNo}: TYPE for ${name} after its samples`);
        if (!TYPES.has(rest.trim())) throw new Error(`line ${lineNo}: unknown type "${rest}"`);
        family.type = rest.trim();
      }
      return;
    }
    const sample = parseSample(line, lineNo);
    const familyName = familyOf(sample.name, families, current);
    const family = enter(familyName, lineNo);
    const key = `${sample.name}{${Object.entries(sample.labels)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join(',')}}`;
    if (series.has(key)) throw new Error(`line ${lineNo}: duplicate series ${key}`);
    series.add(key);
    family.samples.push(sample);
  });
  return families;
}

function familyOf(name: string, families: Map<string, Family>, current: string | undefined): string {
  if (current) {
    const type = families.get(current)?.type ?? 'untyped';
    if (name === current || (SUFFIXES[type] ?? []).some((s) => name === current + s)) return current;
  }
  return name;
}

function parseSample(line: string, lineNo: number): Sample {
  const nameMatch = METRIC_NAME.exec(line);
  if (!nameMatch) throw new Error(`line ${lineNo}: no metric name in "${line}"`);
  const name = nameMatch[0];
  let at = name.length;
  const labels: Record<string, string> = {};
  if (line[at] === '{') {
    at++;
    while (line[at] !== '}') {
      const labelMatch = LABEL_NAME.exec(line.slice(at));
      if (!labelMatch) throw new Error(`line ${lineNo}: bad label name at column ${at + 1}`);
      const label = labelMatch[0];
      if (label.startsWith('__')) throw new Error(`line ${lineNo}: label ${label} is reserved`);
      if (label in labels) throw new Error(`line ${lineNo}: label ${label} repeated`);
      at += label.length;
      if (line.slice(at, at + 2) !== '="') throw new Error(`line ${lineNo}: expected =" after ${label}`);
      at += 2;
      let raw = '';
      while (at < line.length && line[at] !== '"') {
        if (line[at] === '\\') {
          raw += line.slice(at, at + 2);
          at += 2;
        } else raw += line[at++];
      }
      if (line[at] !== '"') throw new Error(`line ${lineNo}: unterminated value of ${label}`);
      labels[label] = unescapeText(raw, true, lineNo);
      at++;
      if (line[at] === ',') at++;
      else if (line[at] !== '}') throw new Error(`line ${lineNo}: expected , or } after ${label}`);
    }
    at++;
  }
  const rest = line.slice(at);
  const parts = /^[ \t]+(\S+)(?:[ \t]+(-?\d+))?[ \t]*$/.exec(rest);
  if (!parts) throw new Error(`line ${lineNo}: expected " <value> [timestamp]" after the labels, got "${rest}"`);
  const valueText = parts[1]!;
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$|^[+-]?Inf$|^NaN$/.test(valueText))
    throw new Error(`line ${lineNo}: "${valueText}" is not a number`);
  return { name, labels, value: Number(valueText.replace('Inf', 'Infinity')) };
}

/** Label values escape \\, \" and \n; HELP text escapes \\ and \n. Anything else is an error. */
function unescapeText(raw: string, quoted: boolean, lineNo: number): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c !== '\\') {
      if (quoted && c === '"') throw new Error(`line ${lineNo}: unescaped quote in a label value`);
      out += c;
      continue;
    }
    const next = raw[++i];
    if (next === '\\') out += '\\';
    else if (next === 'n') out += '\n';
    else if (next === '"' && quoted) out += '"';
    else throw new Error(`line ${lineNo}: bad escape \\${next ?? ''}`);
  }
  return out;
}
