// The settings file init writes reads back, through dotenv, as exactly what was answered, and
// holds no secret.
import { parse } from 'dotenv';
import { describe, expect, it } from 'vitest';
import { environmentOf, secretsOf, settingsOf, settingsText } from '../../../src/init/answers.js';

const answers = {
  hosts: 'home.example.com,nas.example.com=::1:2:3:4',
  dyndnsUser: 'me',
  dyndnsKey: 'key-1',
  apiUser: 'api-me',
  apiPassword: 'pw #1',
  apiUrl: 'http://127.0.0.1:8443',
};

describe('what init writes of its answers', () => {
  it('a settings file that dotenv reads back as answered, without the secrets', () => {
    const text = settingsText(settingsOf(answers), 'ddedge init');
    expect(parse(text)).toEqual({
      DDEDGE_HOSTS: 'home.example.com,nas.example.com=::1:2:3:4',
      DDEDGE_DYNDNS_USER: 'me',
      DDEDGE_API_USER: 'api-me',
      DDEDGE_API_URL: 'http://127.0.0.1:8443',
    });
    expect(text).not.toContain('key-1');
    expect(text).not.toContain('pw #1');
  });

  it('quotes a value dotenv would otherwise cut (a space, a #)', () => {
    expect(parse(settingsText({ DDEDGE_API_USER: 'a b #c' }, 'ddedge init'))).toEqual({ DDEDGE_API_USER: 'a b #c' });
  });

  it('a file per secret, named by its credential; none for an interface skipped', () => {
    expect(secretsOf(answers)).toEqual({ 'dyndns-key': 'key-1', 'api-password': 'pw #1' });
    expect(secretsOf({ hosts: 'a.example.com', dyndnsUser: 'me', dyndnsKey: 'k' })).toEqual({ 'dyndns-key': 'k' });
  });

  it('checks the answers as a command will read them, secrets included, and keeps where requests go', () => {
    const env = environmentOf(answers, { HOME: '/h', DDEDGE_TIMEOUT: '3s', DDEDGE_HOSTS: 'other.example.com' });
    expect(env).toMatchObject({ DDEDGE_HOSTS: answers.hosts, DDEDGE_DYNDNS_KEY: 'key-1', HOME: '/h' });
    expect(env.DDEDGE_TIMEOUT).toBe('3s');
  });
});
