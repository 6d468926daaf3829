// The DNS-PERSIST-01 record, read as a CA reads it and written as the draft writes it: the
// draft's own examples (draft-ietf-acme-dns-persist, the working group's copy of November 2025)
// and the cases of Let's Encrypt's parser (boulder va/dns_persist_test.go, August 2026).
import { describe, expect, it } from 'vitest';
import {
  formatPersistRecord,
  normalizeIssuer,
  parsePersistRecord,
  persistUntilText,
} from '../../../src/acme/persist-record.js';
import { judgePersistRecords } from '../../../src/acme/persist-verdict.js';

/** A TXT record of the draft as its character-strings, joined as a CA joins them. */
const joined = (...strings: string[]): string => strings.join('');
const ACCOUNT = 'https://ca.example/acct/123';
const LE_ACCOUNT = 'http://boulder.service.consul:4000/acme/reg/1';

describe("the draft's examples", () => {
  it('basic validation: the FQDN only', () => {
    const text = joined('authority.example;', ' accounturi=https://ca.example/acct/123');
    expect(parsePersistRecord(text)).toEqual({ issuer: 'authority.example', params: { accountUri: ACCOUNT } });
    expect(formatPersistRecord({ issuer: 'authority.example', accountUri: ACCOUNT, wildcard: false })).toBe(text);
  });

  it('wildcard validation', () => {
    const text = joined('authority.example;', ' accounturi=https://ca.example/acct/123;', ' policy=wildcard');
    expect(parsePersistRecord(text).params).toEqual({ accountUri: ACCOUNT, policy: 'wildcard' });
    expect(formatPersistRecord({ issuer: 'authority.example', accountUri: ACCOUNT, wildcard: true })).toBe(text);
  });

  it('persistUntil: a Unix time, 1721952000 being 2024-07-26T00:00:00Z', () => {
    const text = joined('authority.example;', ' accounturi=https://ca.example/acct/123;', ' persistUntil=1721952000');
    expect(parsePersistRecord(text).params).toEqual({ accountUri: ACCOUNT, persistUntil: 1721952000 });
    expect(persistUntilText(1721952000)).toBe('2024-07-26T00:00:00Z');
    expect(
      formatPersistRecord({
        issuer: 'authority.example',
        accountUri: ACCOUNT,
        wildcard: false,
        persistUntil: 1721952000,
      }),
    ).toBe(text);
  });

  it('wildcard with persistUntil, in the order the draft writes them', () => {
    const text = joined(
      'authority.example;',
      ' accounturi=https://ca.example/acct/123;',
      ' policy=wildcard;',
      ' persistUntil=1721952000',
    );
    expect(
      formatPersistRecord({
        issuer: 'authority.example',
        accountUri: ACCOUNT,
        wildcard: true,
        persistUntil: 1721952000,
      }),
    ).toBe(text);
    const before = judgePersistRecords([text], {
      issuer: 'authority.example',
      accountUri: ACCOUNT,
      wildcard: true,
      now: 1721952000,
    });
    expect(before.valid).toBe(true);
    const after = judgePersistRecords([text], {
      issuer: 'authority.example',
      accountUri: ACCOUNT,
      wildcard: false,
      now: 1721952001,
    });
    expect(after).toMatchObject({ valid: false, problem: 'unauthorized' });
    expect(after.valid ? '' : after.reasons.join()).toContain('persistUntil 2024-07-26T00:00:00Z has passed');
  });

  it('two CAs at one name: each takes its own record and ignores the other', () => {
    const records = [
      joined('ca1.example;', ' accounturi=https://ca1.example/acme/acct/12345;', ' policy=wildcard'),
      joined('ca2.example;', ' accounturi=https://ca2.example/acme/acct/67890;', ' persistUntil=1767225600'),
    ];
    const ca1 = judgePersistRecords(records, {
      issuer: 'ca1.example',
      accountUri: 'https://ca1.example/acme/acct/12345',
      wildcard: true,
      now: 1767225601,
    });
    expect(ca1).toMatchObject({ valid: true, wildcard: true, others: 1 });
    const ca2 = judgePersistRecords(records, {
      issuer: 'ca2.example',
      accountUri: 'https://ca2.example/acme/acct/67890',
      wildcard: false,
      now: 1767225600,
    });
    expect(ca2).toMatchObject({ valid: true, params: { persistUntil: 1767225600 } });
  });

  it("normalizes an issuer as the draft's algorithm does (case-folding, NFC, punycode, no trailing dot)", () => {
    expect(normalizeIssuer('EXAMPLE.com.')).toBe('example.com');
    // The draft's worked example ("üÑICODE-example.com." -> "ünicode-example.com." -> "xn--nicode-example-9jb.com")
    // drops the Ñ when folding and gives a punycode no IDNA library gives for either name; boulder (strings.ToLower,
    // NFC, idna.Lookup.ToASCII) keeps the Ñ, as this does.
    expect(normalizeIssuer('üÑICODE-example.com.')).toBe('xn--icode-example-hkb8n.com');
    expect(normalizeIssuer('ÜNICODE-example.com.')).toBe('xn--nicode-example-fsb.com');
    expect(normalizeIssuer('u\u0308nicode-example.com')).toBe('xn--nicode-example-fsb.com');
  });
});

describe("boulder's parser cases", () => {
  const ok = (text: string) => {
    const parsed = parsePersistRecord(text);
    expect(parsed.error, text).toBeUndefined();
    return parsed;
  };
  const bad = (text: string, issuer: string | undefined, error: string) => {
    const parsed = parsePersistRecord(text);
    expect(parsed.params).toBeUndefined();
    expect(parsed.issuer).toBe(issuer);
    expect(parsed.error).toContain(error);
  };

  it('reads the issuer without case and without a trailing dot; another issuer is read too', () => {
    expect(ok(`LETSENCRYPT.ORG.;accounturi=${LE_ACCOUNT}`).issuer).toBe('letsencrypt.org');
    expect(ok(`other.example;accounturi=${LE_ACCOUNT}`).issuer).toBe('other.example');
  });

  it('ignores space and tab around every part, and reads tags without case', () => {
    const parsed = ok(
      `   letsencrypt.org   ;   accounturi   =   ${LE_ACCOUNT}   ;\tpolicy   =   wildcard   ;   persistUntil   =   4102444800   `,
    );
    expect(parsed.params).toEqual({ accountUri: LE_ACCOUNT, policy: 'wildcard', persistUntil: 4102444800 });
    expect(ok(`letsencrypt.org;accounturi=${LE_ACCOUNT};pOlIcY=wildcard`).params?.policy).toBe('wildcard');
  });

  it('ignores unknown parameters, even repeated or oddly spelled ones', () => {
    expect(ok(`letsencrypt.org;accounturi=${LE_ACCOUNT};bad tag=value;\nweird=\\x01337`).params).toEqual({
      accountUri: LE_ACCOUNT,
    });
    expect(ok(`letsencrypt.org;accounturi=${LE_ACCOUNT};foo=bar;foo=baz`).params).toEqual({ accountUri: LE_ACCOUNT });
  });

  it('finds what makes a record malformed, and still names its issuer', () => {
    bad(`;accounturi=${LE_ACCOUNT}`, undefined, 'empty issuer-domain-name');
    bad(
      `letsencrypt.org;accounturi=${LE_ACCOUNT};invalidparam`,
      'letsencrypt.org',
      'malformed parameter "invalidparam"',
    );
    bad(`letsencrypt.org;accounturi=${LE_ACCOUNT};=abc`, 'letsencrypt.org', 'empty tag');
    bad('letsencrypt.org;accounturi=', 'letsencrypt.org', 'empty value for the mandatory accounturi');
    bad('letsencrypt.org;policy=wildcard', 'letsencrypt.org', 'missing mandatory accounturi parameter');
    bad('letsencrypt.org', 'letsencrypt.org', 'missing mandatory accounturi parameter');
    bad(`letsencrypt.org;accounturi=${LE_ACCOUNT};policy=wild card`, 'letsencrypt.org', 'malformed value "wild card"');
    bad(`letsencrypt.org;accounturi=${LE_ACCOUNT};`, 'letsencrypt.org', 'trailing semicolon');
    bad(`other.example;accounturi=${LE_ACCOUNT};accounturi=other`, 'other.example', 'duplicate parameter');
  });

  it('finds a known parameter given twice, whatever its case', () => {
    bad(
      `letsencrypt.org;ACCOUNTURI=${LE_ACCOUNT};accounturi=other`,
      'letsencrypt.org',
      'duplicate parameter "accounturi"',
    );
    bad(`letsencrypt.org;accounturi=${LE_ACCOUNT};policy=wildcard;POLICY=x`, 'letsencrypt.org', 'duplicate parameter');
    bad(`letsencrypt.org;accounturi=${LE_ACCOUNT};persistUntil=1;persistuntil=2`, 'letsencrypt.org', 'duplicate');
  });

  it('reads persistUntil as a base-10 64-bit integer only', () => {
    for (const value of [
      'not-a-unix-timestamp',
      '',
      '2027-01-01T00:00:00Z',
      '1e9',
      '0x10',
      '1.5',
      '9223372036854775808',
    ])
      bad(
        `letsencrypt.org;accounturi=${LE_ACCOUNT};persistUntil=${value}`,
        'letsencrypt.org',
        'malformed persistUntil',
      );
    expect(ok(`letsencrypt.org;accounturi=${LE_ACCOUNT};persistUntil=1721952000`).params?.persistUntil).toBe(
      1721952000,
    );
    expect(ok(`letsencrypt.org;accounturi=${LE_ACCOUNT};persistUntil=-1`).params?.persistUntil).toBe(-1);
    expect(ok(`letsencrypt.org;accounturi=${LE_ACCOUNT};persistUntil=9223372036854775807`).params).toBeDefined();
  });

  it('refuses a value with a byte beyond ASCII or a control character', () => {
    bad(`letsencrypt.org;accounturi=https://ca.example/é`, 'letsencrypt.org', 'malformed value');
    bad(`letsencrypt.org;accounturi=https://ca.example/\x01`, 'letsencrypt.org', 'malformed value');
  });

  it('bounds a huge record: an issuer beyond 253 octets is malformed, a long value is read whole', () => {
    bad(`${'a'.repeat(250)}.example;accounturi=${LE_ACCOUNT}`, undefined, 'malformed issuer-domain-name');
    const long = `https://ca.example/${'x'.repeat(60_000)}`;
    expect(ok(`letsencrypt.org;accounturi=${long}`).params?.accountUri).toBe(long);
  });
});

describe("the CA's decision among the records at the name (boulder's validateDNSPersist01)", () => {
  const question = { issuer: 'letsencrypt.org', accountUri: LE_ACCOUNT, wildcard: false, now: 1_800_000_000 };

  it('says there is no record, or none for the issuer', () => {
    expect(judgePersistRecords([], question)).toMatchObject({ valid: false, problem: 'no-record' });
    expect(judgePersistRecords([`other.example;accounturi=${LE_ACCOUNT}`], question)).toMatchObject({
      valid: false,
      problem: 'no-record',
      others: 1,
    });
  });

  it('a valid record for the issuer wins over a malformed or an unauthorized one', () => {
    const valid = `letsencrypt.org;accounturi=${LE_ACCOUNT}`;
    expect(judgePersistRecords([`${valid};accounturi=other`, valid], question).valid).toBe(true);
    expect(judgePersistRecords(['letsencrypt.org;accounturi=https://x.example/acct/999', valid], question).valid).toBe(
      true,
    );
  });

  it('malformed before unauthorized; each reason said', () => {
    const verdict = judgePersistRecords(
      [`letsencrypt.org;accounturi=${LE_ACCOUNT};accounturi=other`, 'letsencrypt.org;accounturi=https://x/acct/9'],
      question,
    );
    expect(verdict).toMatchObject({ valid: false, problem: 'malformed' });
    expect(verdict.valid ? [] : verdict.reasons).toHaveLength(2);
  });

  it('compares the account exactly, needs policy=wildcard (any case) for a wildcard, and refuses after persistUntil', () => {
    const upper = judgePersistRecords([`letsencrypt.org;accounturi=${LE_ACCOUNT.toUpperCase()}`], question);
    expect(upper).toMatchObject({ valid: false, problem: 'unauthorized' });
    const wildcard = { ...question, wildcard: true };
    expect(judgePersistRecords([`letsencrypt.org;accounturi=${LE_ACCOUNT}`], wildcard).valid).toBe(false);
    expect(judgePersistRecords([`letsencrypt.org;accounturi=${LE_ACCOUNT};policy=notwildcard`], wildcard).valid).toBe(
      false,
    );
    expect(judgePersistRecords([`letsencrypt.org;accounturi=${LE_ACCOUNT};policy=wIlDcArD`], wildcard).valid).toBe(
      true,
    );
    expect(judgePersistRecords([`letsencrypt.org;accounturi=${LE_ACCOUNT};persistUntil=0`], question)).toMatchObject({
      valid: false,
      problem: 'unauthorized',
    });
    // Another policy is as good as none for a name itself.
    expect(judgePersistRecords([`letsencrypt.org;accounturi=${LE_ACCOUNT};policy=notwildcard`], question).valid).toBe(
      true,
    );
  });

  it('without an account to compare, names the account the record gives', () => {
    const verdict = judgePersistRecords([`letsencrypt.org;accounturi=${LE_ACCOUNT}`], {
      ...question,
      accountUri: undefined,
    });
    expect(verdict).toMatchObject({ valid: true, params: { accountUri: LE_ACCOUNT } });
  });
});
