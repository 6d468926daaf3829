// Lines of a complete export (complete-export.ts) that are the provider's, not the zone's
// records: the `$TTL` line, which gives the provider's default TTL (what the name servers give
// records kept at "-"), and the glue addresses of name servers inside the zone that the provider
// serves without a record of the zone. Each carries a comment that marks it; ddedge reads a marked
// line as no line, so those records stay at the provider's default and no glue is created, while
// other tools (named-checkzone, NSD, Knot) read ordinary lines. Its own small file: every zone
// command reads files, only `export --complete` asks name servers.

/** The comment that marks a `$TTL` line as the provider's default. */
export const PROVIDER_DEFAULT_TTL = "ddedge: the provider's default TTL, kept by records written without one";
/** The comment that marks a name server's address the provider serves beside the zone's records. */
export const PROVIDER_GLUE = "ddedge: the provider's name server address, not a record of the zone";

// A line ends at LF, CR or CRLF, as the lexer (and BIND) reads it: `^` in a multi-line pattern
// also starts after a lone CR, and the line may not run past one, or a record before a lone CR
// would be taken into the marked line and dropped.
const marked = (comment: string) =>
  new RegExp(`^[^;\\n\\r]*; ${comment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[ \\t]*\\r?$`, 'gm');
const TTL_LINE = marked(PROVIDER_DEFAULT_TTL);
const GLUE_LINE = marked(PROVIDER_GLUE);

/** The file as ddedge reads it: marked lines become empty lines (lines keep their numbers). */
export function withoutProviderLines(text: string): string {
  let read = text;
  if (read.includes(PROVIDER_DEFAULT_TTL))
    read = read.replace(TTL_LINE, (line) => (/^\$TTL[ \t]/.test(line) ? '' : line));
  if (read.includes(PROVIDER_GLUE))
    read = read.replace(GLUE_LINE, (line) => (/^\S+[ \t]+\d+[ \t]+IN[ \t]+(A|AAAA)[ \t]/.test(line) ? '' : line));
  return read;
}
