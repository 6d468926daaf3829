// Names as ddedge compares them. Imports nothing of ours, so every layer can use it.

/** The entry's name as the provider writes it (full host name, per the field notes) or relative to the zone. */
export function entryMatchesHost(entryName: string, host: string, zone: string): boolean {
  const name = entryName.toLowerCase().replace(/\.$/, '');
  if (name === host) return true;
  if (name === '@' || name === '') return host === zone;
  return `${name}.${zone}` === host;
}
