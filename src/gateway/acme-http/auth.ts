// Who is asking, for the ACME protocols: a key's name and its secret as the keys file writes it
// (httpreq's basic auth, acme-dns's X-Api-User and X-Api-Key), judged as the dyndns2 door judges
// its credentials and with the same memory of wrong tries (limits/guess-limit.ts): a source past
// its wrong tries is refused (429) before its secret is looked at, a user name that is no key is
// never shown, and a client's first try without credentials is no guess.
import { type Credentials, isKeyName, keyOf, refusedCredentialsReason } from '../keys/credentials.js';
import { keyNameOf } from '../keys/keys-file.js';
import type { GatewayKeys } from '../keys/keys-file.js';
import type { GuessLimit } from '../limits/guess-limit.js';
import type { RefusalLog } from '../limits/refusal-log.js';

export type Authenticated = { key: string } | { status: 401 | 429; close: boolean };

/** The key the credentials are, or the refusal (logged): 429 past the wrong tries, 401 otherwise. */
export function authenticate(
  credentials: Credentials | undefined,
  context: { client: string; protocol: string; keys: GatewayKeys; guesses: GuessLimit; refusals: RefusalLog },
): Authenticated {
  const { client, protocol, keys, guesses, refusals } = context;
  const user = credentials?.user;
  const known = user !== undefined && isKeyName(keys, user) ? keyNameOf(user) : undefined;
  const what = {
    client,
    kind: 'request' as const,
    keyless: user === undefined ? 'with no credentials' : 'with bad credentials',
    ...(known ? { key: known } : {}),
  };
  const limited = guesses.refusal(client, known);
  if (limited) {
    refusals.refused('badauth', what, `${protocol}: refused before the password was looked at: ${limited}`);
    return { status: 429, close: true };
  }
  const key = keyOf(keys, credentials);
  if (key) {
    guesses.succeeded(client, key);
    return { key };
  }
  if (credentials) guesses.failed(client, known);
  const why = refusedCredentialsReason(user, known !== undefined);
  refusals.refused('badauth', what, `${protocol}: ${why}`);
  return { status: 401, close: credentials !== undefined };
}

/** What must never be logged: the password this request gave and every key's secret. */
export function scrubber(credentials: Credentials | undefined, keys: GatewayKeys): (text: string) => string {
  let hidden: string[] | undefined;
  return (text) => {
    hidden ??= [
      ...new Set([
        ...[...keys.keys.values()].map((k) => k.secret.toString('base64')),
        ...(credentials && credentials.password.length >= 4 ? [credentials.password] : []),
      ]),
    ].sort((a, b) => b.length - a.length);
    return hidden.reduce((t, secret) => t.split(secret).join('***'), text);
  };
}
