// A refused record's fingerprint: changes with what a person would change to fix the refusal,
// and never holds a secret.
import { describe, expect, it } from 'vitest';
import { recordFingerprint } from '../../../src/agent/record-fingerprint.js';
import type { Config } from '../../../src/config/config.js';

const SECRET = 'dyndns-secret-Zq81x';
const config = (change: Partial<Config> = {}): Config =>
  ({
    via: 'dyndns',
    dyndns: { url: 'https://dondns.dondominio.com', format: 'json', user: 'u', key: SECRET, keyParam: 'password' },
    api: { url: 'https://simple-api.dondominio.net', user: 'a', password: 'p' },
    ...change,
  }) as Config;

describe('recordFingerprint', () => {
  it('is the same for the same record and settings, a short digest without the secret', () => {
    const print = recordFingerprint(config(), 'home.example.com', 'A');
    expect(print).toBe(recordFingerprint(config(), 'home.example.com', 'A'));
    expect(print).toMatch(/^[\w-]{22}$/);
    expect(print).not.toContain(SECRET.slice(0, 6));
  });

  it('changes with the host, the type, the way it is sent, the service and the credentials', () => {
    const base = recordFingerprint(config(), 'home.example.com', 'A');
    const others = [
      recordFingerprint(config(), 'nas.example.com', 'A'),
      recordFingerprint(config(), 'home.example.com', 'AAAA'),
      recordFingerprint(config({ via: 'api' }), 'home.example.com', 'A'),
      recordFingerprint(config({ service: 'example.com' }), 'home.example.com', 'A'),
      recordFingerprint(config({ dyndns: { ...config().dyndns, key: 'another-key' } }), 'home.example.com', 'A'),
      recordFingerprint(config({ api: { ...config().api, url: 'https://127.0.0.1:8443' } }), 'home.example.com', 'A'),
    ];
    expect(new Set([base, ...others]).size).toBe(others.length + 1);
  });
});
