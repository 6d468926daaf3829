// Who is asking: the user name is a key's name in the gateway's keys file, the password that
// key's secret exactly as the file writes it (the base64 text that `tsig-keygen` printed), so
// one keys file and one grant list serve both doors. The secret is compared in constant time:
// both sides are hashed to one length first, so neither the length nor the first differing
// byte shows in the time taken, and an unknown user costs the same comparison as a known one.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { GatewayKeys } from '../keys-file.js';

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
/** Compared against when the user names no key, so that an unknown name takes as long as a wrong secret. */
const NO_KEY = digest('ddedge: no such key');

/** The key's name when `user`/`password` are a key of `keys` and its secret; undefined otherwise. */
export function keyOf(keys: GatewayKeys, credentials: { user: string; password: string } | undefined): string | undefined {
  if (!credentials) return undefined;
  let name: string | undefined = credentials.user.toLowerCase().replace(/\.$/, '');
  const key = keys.keys.get(name);
  if (!key) name = undefined;
  const expected = key ? digest(key.secret.toString('base64')) : NO_KEY;
  const same = timingSafeEqual(expected, digest(credentials.password));
  return same && name !== undefined ? name : undefined;
}

/** Whether `user` names a key of the file: only then is it shown in a log (a password typed as the user name is not). */
export const isKeyName = (keys: GatewayKeys, user: string): boolean => keys.keys.has(user.toLowerCase().replace(/\.$/, ''));
