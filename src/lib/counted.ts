// A count with its noun, as people write it: "1 record", "2 records" (never "record(s)").

/** `counted(1, 'zone')` is "1 zone", `counted(3, 'zone')` "3 zones"; `plural` for nouns that do not just take an s. */
export const counted = (n: number, noun: string, plural = `${noun}s`): string => `${n} ${n === 1 ? noun : plural}`;
