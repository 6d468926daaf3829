// Whether a dynamic DNS refusal blames the credentials (exit 3: the daemon stops calling)
// or the request (exit 7). Decided from the answer's structure (a host or resData part means
// the user and key were accepted) and from the texts the provider is known to send for
// wrong credentials, never from single words: "Host monkey.example.com not found" names a
// host, not a key. Host names and addresses are taken out of a message before it is read.
import type { DyndnsResult } from './result.js';

// "Incorrect data" is what the real server answers for a wrong user or key (field notes);
// the others are the wordings clients have reported for wrong or disabled credentials.
const KNOWN_AUTH_TEXTS = [
  /^(incorrect data|datos incorrectos)$/,
  /^(invalid|incorrect|wrong|unknown) (user|username|key|api ?key|password|credentials|login)$/,
  /^(usuario|clave|contraseña) (incorrect[ao]|no v[aá]lid[ao]|desconocid[ao])$/,
  /^(the )?(dynamic dns |dyndns |dondns )?(key|api ?key|clave) (is )?(disabled|deshabilitada?|not generated)$/,
  /^(authentication|login) (failed|required|error)$/,
];

// Host names (two labels or more) and IP addresses: the parts of a message a user chose.
const NAMES_AND_ADDRESSES = /\b(?:[\p{L}\p{N}_-]+\.)+[\p{L}\p{N}_-]+\b|\b[0-9a-f]*:[0-9a-f:.]+\b/giu;

export function refusalKind(result: DyndnsResult): 'auth' | 'refused' {
  if (result.credentialsAccepted) return 'refused';
  return result.messages.some(isKnownAuthText) ? 'auth' : 'refused';
}

function isKnownAuthText(message: string): boolean {
  const text = withoutTrailing(message.replace(NAMES_AND_ADDRESSES, ' ').toLowerCase())
    .replace(/^[\s:;!,-]+/, '')
    .replace(/\s+/g, ' ');
  return KNOWN_AUTH_TEXTS.some((pattern) => pattern.test(text));
}

const TRAILING = /[\s.:;!,]/;

/**
 * The text without its trailing spaces and punctuation. Not /[\s.:;!,]+$/: that pattern is
 * tried again from each character of a run that is not at the end (the provider chooses the
 * message, up to 1 MiB), the square of its length.
 */
function withoutTrailing(text: string): string {
  let end = text.length;
  while (end > 0 && TRAILING.test(text[end - 1]!)) end--;
  return text.slice(0, end);
}
