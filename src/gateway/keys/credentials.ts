// Who is asking: the user name is a key's name in the gateway's keys file, the password that
// key's secret exactly as the file writes it (the base64 text that `tsig-keygen` printed), so
// one keys file and one grant list serve both doors. The secret is compared in constant time
// (timingSafeEqual over the whole text): the time taken does not show where a guess first
// differs. Only its length can show, and that is the algorithm's (44 characters for
// hmac-sha256), no secret. An unknown user costs the same comparison as a known one.
import { timingSafeEqual } from 'node:crypto';
import { keyNameOf, type GatewayKeys } from './keys-file.js';

/** Each key's secret text, made once per keys file loaded (a reload is a new object), not at every request. */
const secretTexts = new WeakMap<GatewayKeys, Map<string, Buffer>>();
function secretText(keys: GatewayKeys, name: string): Buffer | undefined {
  let texts = secretTexts.get(keys);
  if (!texts) {
    texts = new Map([...keys.keys].map(([n, key]) => [n, Buffer.from(key.secret.toString('base64'))]));
    secretTexts.set(keys, texts);
  }
  return texts.get(name);
}
/** Compared against when the user names no key, so that an unknown name takes as long as a wrong secret. */
const NO_KEY = Buffer.alloc(44);

export interface Credentials {
  user: string;
  password: string;
}

/** Basic credentials from an Authorization header (`user:password`, base64); undefined when there are none. */
export function basicCredentials(header: string | undefined): Credentials | undefined {
  const match = /^\s*basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const text = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  return colon < 0 ? { user: text, password: '' } : { user: text.slice(0, colon), password: text.slice(colon + 1) };
}

/** The key's name when `user`/`password` are a key of `keys` and its secret; undefined otherwise. */
export function keyOf(keys: GatewayKeys, credentials: Credentials | undefined): string | undefined {
  if (!credentials) return undefined;
  const name = keyNameOf(credentials.user);
  const expected = name === undefined ? undefined : secretText(keys, name);
  const given = Buffer.from(credentials.password);
  const against = expected ?? NO_KEY;
  // Equal lengths are compared byte for byte in constant time; another length against itself, so the work is alike.
  const same = given.length === against.length ? timingSafeEqual(given, against) : !timingSafeEqual(given, given);
  return same && expected ? name : undefined;
}

/**
 * Whether `user` names a key of the file: only then is it shown in a log (a password typed as the user name is not).
 */
export const isKeyName = (keys: GatewayKeys, user: string): boolean => {
  const name = keyNameOf(user);
  return name !== undefined && keys.keys.has(name);
};

/** Why credentials were refused, as the refusal log says it: never the password, nor a user name no key has. */
export const refusedCredentialsReason = (user: string | undefined, known: boolean): string =>
  user === undefined
    ? 'no credentials'
    : known
      ? 'a wrong password'
      : 'a user name that is no key of the keys file (not shown)';
