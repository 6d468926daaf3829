// A server accepts the request's fudge up to 300 s: a client asking for 65,535 s (the field's
// largest) would otherwise have a message signed 18 hours ago accepted, and the gateway's
// replay cache would have to keep every signed update that long.
import { describe, expect, it } from 'vitest';
import { encodeMessage } from '../../../../src/dns/wire/message.js';
import { findTsig, signMessage, TSIG_ERROR, verifyRequest, type TsigKey } from '../../../../src/dns/wire/tsig.js';

const key: TsigKey = { name: 'k', algorithm: 'hmac-sha256', secret: Buffer.alloc(32, 7) };
const NOW = 1_800_000_000;
const check = (signedAgo: number, fudge: number) => {
  const { message } = signMessage(
    encodeMessage({ id: 1, questions: [{ name: 'example.com', type: 6, class: 1 }] }),
    key,
    undefined,
    { timeSigned: NOW - signedAgo, fudge },
  );
  return verifyRequest(message, findTsig(message)!, () => key, NOW);
};

describe('TSIG time check', () => {
  it("honours the request's fudge up to 300 s, never more", () => {
    expect(check(100, 300).ok).toBe(true);
    expect(check(100, 60)).toMatchObject({ ok: false, error: TSIG_ERROR.BADTIME });
    expect(check(250, 65_535).ok).toBe(true);
    expect(check(1000, 65_535)).toMatchObject({ ok: false, error: TSIG_ERROR.BADTIME });
  });
});
