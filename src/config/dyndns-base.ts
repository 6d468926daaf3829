// --dyndns-url is the base of the dynamic DNS interface; the client appends /<format>/. The
// sandbox's banner (and the provider's own examples) show the URL with the format already
// in it (…/json/): taken as a base, it became …/json/json/. A base that ends in a format is
// split into the base and that format.
import type { DyndnsFormat } from '../dyndns/result.js';

const FORMAT_AT_END = /\/(json|xml|plain)\/?$/i;

/** The base without a trailing format segment, and the format it named, if any. */
export function splitDyndnsUrl(url: string): { base: string; format?: DyndnsFormat } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { base: url };
  }
  const match = FORMAT_AT_END.exec(parsed.pathname);
  if (!match) return { base: url };
  parsed.pathname = parsed.pathname.slice(0, match.index + 1);
  return { base: parsed.toString(), format: match[1]!.toLowerCase() as DyndnsFormat };
}
