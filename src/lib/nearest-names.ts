/** Names within two edits of a mistyped one, or that it begins, for "did you mean". */
export function nearestNames(name: string, names: string[]): string[] {
  return names.filter((n) => editDistance(n, name) <= 2 || (name.length > 0 && n.startsWith(name)));
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}
