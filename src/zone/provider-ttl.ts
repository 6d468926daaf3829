// The `$TTL` line of a complete export (complete-export.ts) carries a comment that marks it as
// the provider's default TTL: the value the name servers give records the provider keeps at its
// default ("-"). ddedge reads such a line as no line, so those records stay at the provider's
// default instead of taking the number; other tools read an ordinary `$TTL`. Its own small file:
// every zone command reads files, only `export --complete` asks name servers.

/** The comment that marks a `$TTL` line as the provider's default. */
export const PROVIDER_DEFAULT_TTL = "ddedge: the provider's default TTL, kept by records written without one";
const PROVIDER_TTL_LINE = /^\$TTL[ \t]+\S+[ \t]*; ddedge: the provider's default TTL, kept by records written without one[ \t]*\r?$/gm;

/** The file as ddedge reads it: a marked `$TTL` line becomes an empty line (lines keep their numbers). */
export const withoutProviderTtl = (text: string): string => (text.includes(PROVIDER_DEFAULT_TTL) ? text.replace(PROVIDER_TTL_LINE, '') : text);
