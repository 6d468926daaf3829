// Text that came from outside (a provider's message, an answer's body) is shown escaped and
// bounded: a `\n` in it cannot forge a log line, an ANSI sequence cannot reach a terminal,
// and a 500 KB message does not become a 500 KB line. Secrets are masked before the cut
// (redact first, then cut), so a secret straddling the cut cannot show in part.
import { redact } from './redact.js';

/** Longest piece of outside text shown in one message or log field. */
export const OUTSIDE_TEXT_LIMIT = 500;

// C0 and C1 controls, DEL, the Unicode line and paragraph separators and the bidi controls
// that reorder what a terminal shows.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function escapeControls(text: string): string {
  return text.replace(
    UNPRINTABLE,
    (c) =>
      SHORT[c] ??
      (c.charCodeAt(0) < 0x100
        ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`
        : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

export function bound(text: string, limit = OUTSIDE_TEXT_LIMIT): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… (${text.length - limit} more characters)`;
}

/** Redacted, escaped, bounded: safe to put in a message, a log line or the state. */
export function outsideText(text: string, limit = OUTSIDE_TEXT_LIMIT): string {
  return bound(escapeControls(redact(text)), limit);
}
