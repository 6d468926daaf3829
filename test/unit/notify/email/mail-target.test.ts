// An e-mail notification URL read: the server, its TLS, the credentials and the addresses, with
// the ports each scheme means; anything missing is refused naming the form.
import { describe, expect, it } from 'vitest';
import { parseNotifyTarget } from '../../../../src/notify/target.js';

describe('an e-mail notification URL', () => {
  it('smtps:// is TLS from the start on 465; smtp:// STARTTLS on 587; events= is ddedge’s', () => {
    const secure = parseNotifyTarget('smtps://me:pw@mail.example.com?from=a@example.com&to=b@example.com', 'x');
    expect(secure.mail).toEqual({
      host: 'mail.example.com',
      port: 465,
      tls: 'implicit',
      user: 'me',
      password: 'pw',
      from: 'a@example.com',
      to: ['b@example.com'],
    });
    expect(secure.shown).toBe('email at mail.example.com');
    const plain = parseNotifyTarget(
      'smtp://[::1]:2525?from=a@example.com&to=b@example.com, c@example.com&events=failing',
      'x',
    );
    expect(plain.mail).toMatchObject({ host: '::1', port: 2525, tls: 'starttls', user: undefined });
    expect(plain.mail?.to).toEqual(['b@example.com', 'c@example.com']);
    expect(plain.events).toEqual(new Set(['failing']));
  });

  it('refuses a URL without a recipient, or with one that is no address', () => {
    expect(() => parseNotifyTarget('smtp://mail.example.com?from=a@example.com', 'DDEDGE_NOTIFY')).toThrow(
      /DDEDGE_NOTIFY: to= needs 1 to 20 e-mail addresses/,
    );
    expect(() => parseNotifyTarget('smtp://mail.example.com?from=a@example.com&to=b<c>', 'n')).toThrow(/to= needs/);
  });
});
