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

/** The key's name when `user`/`password` are a key of `keys` and its secret; undefined otherwise. */
export function keyOf(
  keys: GatewayKeys,
  credentials: { user: string; password: string } | undefined,
): string | undefined {
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
