// Builds dist/ so the end-to-end tests run what a user runs, and makes a throw-away CA and
// a certificate for 127.0.0.1/localhost so HTTPS paths are tested with verification on.
// vitest.config.ts has two projects (files that share a worker, files that get one each) and
// runs this once for each: the build and the CA are made by the first, in vitest's own process,
// and removed after the last.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    tlsDir: string;
  }
}

/** Kept on globalThis: each project may load this file as a module of its own. */
interface Shared {
  tlsDir: string;
  users: number;
}
const KEY = Symbol.for('ddedge.test.global-setup');
const store = globalThis as typeof globalThis & { [KEY]?: Shared };

/**
 * As root every command reads /etc/ddedge/ddedge.env (ddedge init's settings file, the Debian package's): one that sets
 * something would fill what each test leaves unset, so the tests would test that machine's settings.
 */
function refuseMachineSettings(): void {
  const path = '/etc/ddedge/ddedge.env';
  if (process.getuid?.() !== 0 || !existsSync(path)) return;
  if (
    readFileSync(path, 'utf8')
      .split('\n')
      .some((line) => /^\s*[^#\s]/.test(line))
  )
    throw new Error(`${path} sets ddedge settings, which every test run as root would read: move it aside first`);
}

function prepare(): string {
  refuseMachineSettings();
  execFileSync(process.execPath, ['build/build.mjs'], { stdio: 'inherit' });
  const dir = mkdtempSync(join(tmpdir(), 'ddedge-tls-'));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=ddedge test CA',
  );
  openssl(
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    '/CN=localhost',
  );
  execFileSync('sh', ['-c', 'printf "subjectAltName=IP:127.0.0.1,DNS:localhost\\n" > ext.cnf'], { cwd: dir });
  openssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'ext.cnf',
  );
  return dir;
}

export default function setup(project: TestProject) {
  store[KEY] ??= { tlsDir: prepare(), users: 0 };
  const shared = store[KEY];
  shared.users++;
  project.provide('tlsDir', shared.tlsDir);
  return () => {
    if (--shared.users > 0) return;
    rmSync(shared.tlsDir, { recursive: true, force: true });
    delete store[KEY];
  };
}
