// The sandbox's CSRs are real PKCS#10: openssl verifies ours, and we read openssl's.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCsr, decodeCsr } from '../../../src/sandbox/csr.js';
import { tempDir } from '../../helpers/cli.js';

const subject = {
  commonName: 'shop.example.com',
  organizationName: 'Demo SL',
  organizationalUnitName: 'IT',
  countryName: 'ES',
  stateOrProvinceName: 'Madrid',
  localityName: 'Madrid',
  emailAddress: 'it@example.com',
};

describe('CSR', () => {
  it('openssl verifies the signature of a created CSR and reads its subject', () => {
    const dir = tempDir();
    const { csrData, csrKey } = createCsr(subject);
    writeFileSync(join(dir, 'req.pem'), csrData);
    const out = execFileSync(
      'openssl',
      ['req', '-in', join(dir, 'req.pem'), '-noout', '-verify', '-subject', '-nameopt', 'RFC2253'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(out).toContain('CN=shop.example.com');
    expect(out).toContain('O=Demo SL');
    expect(csrKey).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });

  it('reads a CSR made by openssl', () => {
    const dir = tempDir();
    execFileSync(
      'openssl',
      [
        'req',
        '-new',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(dir, 'k.pem'),
        '-out',
        join(dir, 'r.pem'),
        '-subj',
        '/C=PT/ST=Lisboa/L=Lisboa/O=Exemplo Lda/OU=Web/CN=www.example.pt/emailAddress=web@example.pt',
      ],
      { stdio: 'pipe' },
    );
    expect(decodeCsr(readFileSync(join(dir, 'r.pem'), 'utf8'))).toEqual({
      commonName: 'www.example.pt',
      organizationName: 'Exemplo Lda',
      organizationalUnitName: 'Web',
      countryName: 'PT',
      stateOrProvinceName: 'Lisboa',
      localityName: 'Lisboa',
      emailAddress: 'web@example.pt',
    });
  });

  it('refuses a request whose signature does not match, and what is not a request', () => {
    const { csrData } = createCsr(subject);
    const body = csrData.split('\n').slice(1, -2).join('');
    const der = Buffer.from(body, 'base64');
    der.writeUInt8(der.readUInt8(der.length - 10) ^ 0xff, der.length - 10); // a byte of the signature
    const tampered = `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
    expect(() => decodeCsr(tampered)).toThrow(/signature/);
    expect(() => decodeCsr('hello')).toThrow(/no BEGIN\/END/);
    expect(() => decodeCsr('-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----')).toThrow();
  });
});
