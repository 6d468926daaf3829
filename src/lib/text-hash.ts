// The hash of a text for the tables of names that a zone's size makes worth writing by hand
// (name-table.ts, seen-texts.ts). A zone's names all end in the zone: only what comes before that
// end (and the length) is hashed, most of the work being the characters, and those telling few
// names apart; a text given again still hashes the same.

/** FNV-1a over the UTF-16 units of `text` but its last `sharedEnd` (when longer), from its length and `seed`. */
export function textHash(text: string, sharedEnd: number, seed = 0): number {
  const end = text.length > sharedEnd ? text.length - sharedEnd : text.length;
  let hash = 0x811c9dc5 ^ seed ^ text.length;
  for (let i = 0; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
