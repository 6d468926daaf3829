// A JSON request body as the ACME clients send it, read leniently where they differ and strictly
// where it matters: an object, field names in any case (goacmedns has sent `SubDomain` and `Txt`,
// acme-dns itself reads them with Go's case-blind decoder), string values only. Pure; what it says
// is wrong never quotes the body (it may hold anything a client put there).

/** The body's fields by lower-case name (string values only), or why it is no JSON object. */
export function jsonFields(body: string): Map<string, string> | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 'the body is not JSON';
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'the body is not a JSON object';
  const fields = new Map<string, string>();
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value === 'string') fields.set(name.toLowerCase(), value);
  }
  return fields;
}

/** An ACME challenge value as every client sends it: base64url, no padding (43 characters for SHA-256). */
export const isChallengeValue = (text: string): boolean => /^[A-Za-z0-9_-]{1,255}$/.test(text);
