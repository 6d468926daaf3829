// DNS cookies (RFC 7873) on the server side: a client that sends back the server cookie it was
// given has shown that it receives at its address, so it may get answers as large as it asks
// for over UDP; one that has not could be a forged source address, and gets no more than a
// classic 512-byte answer (a 40-byte query once drew a 1,132-byte answer).
// The server cookie is an HMAC of the client cookie and the client's address under a secret
// made at start: nothing is stored per client, and a restart simply asks clients to learn anew.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const CLIENT_COOKIE_BYTES = 8;
const SERVER_COOKIE_BYTES = 16;

export type CookieCheck =
  | { kind: 'none' }
  /** The option is malformed: FORMERR (RFC 7873 5.2.2). */
  | { kind: 'malformed' }
  /**
   * A well-formed cookie; `verified` when its server part is ours for this client. `reply` is the option data to send
   * back.
   */
  | { kind: 'cookie'; verified: boolean; reply: Buffer };

export class CookieJar {
  private readonly secret = randomBytes(32);

  check(option: Buffer | undefined, clientAddress: string): CookieCheck {
    if (option === undefined) return { kind: 'none' };
    // A client cookie alone, or one with a server cookie of 8 to 32 bytes.
    if (
      option.length !== CLIENT_COOKIE_BYTES &&
      (option.length < CLIENT_COOKIE_BYTES + 8 || option.length > CLIENT_COOKIE_BYTES + 32)
    )
      return { kind: 'malformed' };
    const client = option.subarray(0, CLIENT_COOKIE_BYTES);
    const ours = this.serverCookie(client, clientAddress);
    const given = option.subarray(CLIENT_COOKIE_BYTES);
    const verified = given.length === ours.length && timingSafeEqual(given, ours);
    return { kind: 'cookie', verified, reply: Buffer.concat([client, ours]) };
  }

  private serverCookie(client: Buffer, clientAddress: string): Buffer {
    return createHmac('sha256', this.secret)
      .update(client)
      .update(clientAddress)
      .digest()
      .subarray(0, SERVER_COOKIE_BYTES);
  }
}
