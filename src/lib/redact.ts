// Secrets are registered once, when configuration is read; every line that leaves the
// process (logs, errors, --json output, the state) passes through redact(). URL query values
// that carry credentials are masked even when their value was never registered.
//
// A secret is masked in every spelling a server or a serializer may give it back: raw,
// percent-encoded (either hex case, all characters or only some, or twice), form-encoded
// (`+` for a space), JSON-escaped (`\uXXXX`, `\/`, `\"`) and XML/HTML-escaped. Each
// character of the secret may appear in any of its spellings, so mixed forms match too.
// Transformed forms (Base64 of the secret or of `user:secret`, Base64url, hex) are masked
// too, by plain substring searches for forms computed at registration (redact-encoded.ts):
// the common line costs a few indexOf calls per secret, never a regular expression.

import { encodedForms, maskEncodedForm } from './redact-encoded.js';

const MASK = '***';

interface Secret {
  value: string;
  /** Base64, Base64url and hex forms (redact-encoded.ts), computed at registration. */
  encoded: string[];
  /** How many leading characters match in either case (a URL's scheme and host). */
  caseInsensitiveChars: number;
  /**
   * For a secret with such characters, written in ASCII: its lower-case form, which a
   * lower-cased text contains wherever the secret is (other scripts always take the pattern).
   */
  folded?: string;
  /** Every spelling, compiled on first need: most lines never contain a secret at all. */
  pattern?: RegExp;
}
const secrets = new Map<string, Secret>();
// Every spelling but the raw one contains one of these (`%`, `\`, `+`, an XML entity); a text
// without them can hold a secret only as itself, which a plain search finds without the
// (costly to compile) pattern. A bare `&` (a query string's) is no entity.
const ENCODING_MARKS = /[%\\+]|&(?:#|[a-z]+;)/i;
const ASCII = /^[\x20-\x7e]*$/;
const SECRET_PARAMS = new Set(['password', 'apikey', 'apipasswd', 'key', 'token']);

/** Registers a value that must never be shown. Short values would mask ordinary words. */
export function registerSecret(value: string | undefined, caseInsensitiveChars = 0): void {
  addSecret(value, caseInsensitiveChars, true);
}

function addSecret(value: string | undefined, caseInsensitiveChars: number, withEncodedForms: boolean): void {
  if (!value || value.length < 4 || secrets.has(value)) return;
  const folded = caseInsensitiveChars > 0 && ASCII.test(value) ? value.toLowerCase() : undefined;
  secrets.set(value, { value, caseInsensitiveChars, folded, encoded: withEncodedForms ? encodedForms(value) : [] });
}

/**
 * Registers a URL that is itself a secret (a heartbeat URL carries the check's identity):
 * as given, as normalised (`HTTP://` lowercased, `:80` dropped), without its trailing slash,
 * with the default port spelled out, and as `host/path` (how hints show a URL).
 */
export function registerSecretUrl(text: string | undefined): void {
  if (!text) return;
  registerSecret(text);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return;
  }
  const origin = `${url.protocol}//${url.host}`;
  const rest = `${url.pathname}${url.search}`.replace(/\/+$/, '');
  addSecret(origin + rest, origin.length, false);
  addSecret(url.href, origin.length, false);
  if (!url.port) {
    const port = url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '';
    if (port) addSecret(`${url.protocol}//${url.hostname}:${port}${rest}`, origin.length + port.length + 1, false);
  }
  // The path is what tells a check apart (a bare host is no secret); hints show host and path.
  const path = url.pathname.replace(/\/+$/, '');
  if (rest.length > 1) addSecret(`${url.host}${rest}`, url.host.length, false);
  if (path.length > 1) addSecret(`${url.host}${path}`, url.host.length, false);
}

export function redact(text: string): string {
  // Masking a secret adds no mark, so the marks of the text as given hold for the whole loop.
  const plain = !ENCODING_MARKS.test(text);
  let out = text;
  for (const secret of secrets.values()) {
    // Plain substring searches: the common line holds none of them.
    for (const form of secret.encoded) if (out.includes(form)) out = maskEncodedForm(out, form);
    if (plain && secret.caseInsensitiveChars === 0) {
      out = out.replaceAll(secret.value, MASK);
      continue;
    }
    if (plain && secret.folded && !out.toLowerCase().includes(secret.folded)) continue;
    secret.pattern ??= spellingsOf(secret.value, secret.caseInsensitiveChars);
    out = out.replace(secret.pattern, MASK);
  }
  return out;
}

/**
 * A URL as it may be shown: credentials in the query and the user-info part masked (the
 * password; the user name too when it stands alone, as a token does: `https://TOKEN@host/`).
 */
export function redactUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    return redact(maskUserInfo(String(url)));
  }
  if (parsed.password) parsed.password = MASK;
  else if (parsed.username) parsed.username = MASK;
  for (const name of [...parsed.searchParams.keys()]) {
    if (SECRET_PARAMS.has(name.toLowerCase()) && parsed.searchParams.get(name)) parsed.searchParams.set(name, MASK);
  }
  return redact(parsed.toString().replaceAll(encodeURIComponent(MASK), MASK));
}

/**
 * Text that may hold a URL but is not one (a source form mistyped, quoted back in an error):
 * the user-info of every `//user:password@` in it masked as redactUrl would.
 */
export function maskUserInfo(text: string): string {
  // Greedy up to the last @ before the path, as a URL parser reads it: a password may hold an @.
  return text.replace(/\/\/([^\s/?#]*)@/g, (_all, info: string) =>
    info.includes(':') ? `//${info.slice(0, info.indexOf(':'))}:${MASK}@` : `//${MASK}@`,
  );
}

function spellingsOf(secret: string, caseInsensitiveChars: number): RegExp {
  let pattern = '';
  let index = 0;
  for (const ch of secret) {
    const forms = new Set(spellingsOfChar(ch));
    if (index < caseInsensitiveChars)
      for (const other of [ch.toLowerCase(), ch.toUpperCase()]) forms.add(escapeRegex(other));
    pattern += `(?:${[...forms].join('|')})`;
    index += ch.length;
  }
  return new RegExp(pattern, 'g');
}

const JSON_SHORT: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '/': '\\/',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};
const XML_NAMED: Record<string, string[]> = {
  '&': ['&amp;'],
  '<': ['&lt;'],
  '>': ['&gt;'],
  '"': ['&quot;'],
  "'": ['&apos;'],
};

/** Regular-expression alternatives for one character (one code point). */
function spellingsOfChar(ch: string): string[] {
  const code = ch.codePointAt(0)!;
  const bytes = [...new TextEncoder().encode(ch)];
  const forms = [
    escapeRegex(ch),
    bytes.map((b) => `%${hexAnyCase(b, 2)}`).join(''),
    bytes.map((b) => `%25${hexAnyCase(b, 2)}`).join(''),
    [...Array(ch.length).keys()].map((i) => `\\\\u${hexAnyCase(ch.charCodeAt(i), 4)}`).join(''),
    `&#0*${code};`,
    `&#[xX]0*${hexAnyCase(code, 1)};`,
  ];
  if (ch === ' ') forms.push('\\+');
  if (JSON_SHORT[ch]) forms.push(escapeRegex(JSON_SHORT[ch]));
  for (const named of XML_NAMED[ch] ?? []) forms.push(escapeRegex(named));
  return forms;
}

function hexAnyCase(value: number, width: number): string {
  return [...value.toString(16).padStart(width, '0')]
    .map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d))
    .join('');
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
