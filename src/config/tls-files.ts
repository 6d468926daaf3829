// A TLS certificate and its key given as two PEM files (--listen-cert/--listen-key,
// --dyndns2-cert/--dyndns2-key): both or neither, each readable and holding what its name says.
// Read once, at start; a problem is said with the others when loading ends (exit 2).
import { RegularFileRefusal, readRegularFile } from '../lib/regular-file.js';

/** Far above a certificate chain or a key in PEM. */
const PEM_MAX_BYTES = 1024 * 1024;

export interface TlsFiles {
  cert: string;
  key: string;
}

/** `names`: how the two are said in problems (their flags). Undefined when neither is given, or on a problem. */
export function readTlsFiles(
  certFile: string | undefined,
  keyFile: string | undefined,
  names: { cert: string; key: string },
  problems: string[],
): TlsFiles | undefined {
  if (Boolean(certFile) !== Boolean(keyFile)) {
    problems.push(`${names.cert} and ${names.key} go together: give both (TLS) or neither (plain HTTP)`);
    return undefined;
  }
  if (!certFile || !keyFile) return undefined;
  const before = problems.length;
  // Opened once without waiting for a writer and checked on that descriptor: a FIFO there would hold the start.
  const read = (name: string, path: string) => {
    try {
      const text = readRegularFile(path, PEM_MAX_BYTES);
      if (text === undefined) problems.push(`${name}: cannot read "${path}": ENOENT`);
      return text ?? '';
    } catch (error) {
      if (!(error instanceof RegularFileRefusal)) throw error;
      problems.push(
        error.reason.endsWith('not a regular file')
          ? `${name}: "${path}" is ${error.reason}`
          : `${name}: cannot read "${path}": ${error.reason}`,
      );
      return '';
    }
  };
  const tls = { cert: read(names.cert, certFile), key: read(names.key, keyFile) };
  if (tls.cert && !tls.cert.includes('-----BEGIN CERTIFICATE-----'))
    problems.push(`${names.cert}: "${certFile}" holds no PEM certificate`);
  if (tls.key && !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(tls.key))
    problems.push(`${names.key}: "${keyFile}" holds no PEM private key`);
  return problems.length > before ? undefined : tls;
}
