// Secrets are registered once, when configuration is read; every line that leaves the
// process (logs, errors, --json output) passes through redact(). URL query values that
// carry credentials are masked even when their value was never registered.

const MASK = '***';
const secrets = new Set<string>();
const SECRET_PARAMS = new Set(['password', 'apikey', 'apipasswd', 'key', 'token']);

/** Registers a value that must never be shown. Short values would mask ordinary words. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 4) secrets.add(value);
}

export function redact(text: string): string {
  let out = text;
  for (const secret of secrets) {
    if (out.includes(secret)) out = out.split(secret).join(MASK);
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret && out.includes(encoded)) out = out.split(encoded).join(MASK);
  }
  return out;
}

/** A URL as it may be shown: credentials in the query and the user-info part masked. */
export function redactUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    return redact(String(url));
  }
  if (parsed.password) parsed.password = MASK;
  for (const name of [...parsed.searchParams.keys()]) {
    if (SECRET_PARAMS.has(name.toLowerCase()) && parsed.searchParams.get(name)) parsed.searchParams.set(name, MASK);
  }
  return redact(parsed.toString().replaceAll(encodeURIComponent(MASK), MASK));
}
