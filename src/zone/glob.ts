// Name patterns with '*' (any run of characters, dots included), matched in time linear in
// the name and the pattern. A regular expression of several '.*' backtracks: 3.8 s for one
// label against a pattern of a few stars. Here the pieces between stars are found left to
// right, each at its leftmost place (which is always right for '*'-only patterns), with
// Knuth-Morris-Pratt so that no character of the name is compared more than a bounded number
// of times.

export type NameMatcher = (name: string) => boolean;

/** A matcher for `pattern`, in which only '*' is special. */
export function globMatcher(pattern: string): NameMatcher {
  const pieces = pattern.split('*');
  if (pieces.length === 1) return (name) => name === pattern;
  const head = pieces[0]!;
  const tail = pieces[pieces.length - 1]!;
  const middle = pieces
    .slice(1, -1)
    .filter((p) => p !== '')
    .map(piece);
  const fixed = head.length + tail.length;
  return (name) => {
    if (name.length < fixed || !name.startsWith(head) || !name.endsWith(tail)) return false;
    let from = head.length;
    const end = name.length - tail.length;
    for (const p of middle) {
      const at = p.find(name, from, end);
      if (at < 0) return false;
      from = at + p.text.length;
    }
    return true;
  };
}

interface Piece {
  text: string;
  /** Where `text` first occurs in name[from, end), or -1. */
  find(name: string, from: number, end: number): number;
}

function piece(text: string): Piece {
  // fail[i]: the length of the longest proper border of text[0..i].
  const fail = new Int32Array(text.length);
  for (let i = 1, k = 0; i < text.length; i++) {
    while (k > 0 && text[i] !== text[k]) k = fail[k - 1]!;
    if (text[i] === text[k]) k++;
    fail[i] = k;
  }
  return {
    text,
    find(name, from, end) {
      for (let i = from, k = 0; i < end; i++) {
        while (k > 0 && name[i] !== text[k]) k = fail[k - 1]!;
        if (name[i] === text[k]) k++;
        if (k === text.length) return i - k + 1;
      }
      return -1;
    },
  };
}
