// Builds dist/ so the end-to-end tests run what a user runs, and makes a throw-away CA and
// a certificate for 127.0.0.1/localhost so HTTPS paths are tested with verification on.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    tlsDir: string;
  }
}

export default function setup(project: TestProject) {
  execFileSync(process.execPath, ['build.mjs'], { stdio: 'inherit' });
  const dir = mkdtempSync(join(tmpdir(), 'ddedge-tls-'));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=ddedge test CA');
  openssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
  execFileSync('sh', ['-c', 'printf "subjectAltName=IP:127.0.0.1,DNS:localhost\\n" > ext.cnf'], { cwd: dir });
  openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'ext.cnf');
  project.provide('tlsDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
