// Why a file of ours could not be used, without a word of its content: V8's JSON errors quote
// the text (`Unexpected token 'c', "canary-5ec"... is not valid JSON`), and a state file that
// is a link to a key file would print the key. Only our own shape messages and a position.

/** A reason safe to print: "not valid JSON (at position 12)" or our own shape message. */
export function damageReason(error: unknown): string {
  if (!(error instanceof SyntaxError)) return (error as Error).message;
  const position = /at position (\d+)/.exec(error.message)?.[1];
  return `not valid JSON${position ? ` at position ${position}` : ''}`;
}
