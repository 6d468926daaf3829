// The argument after a string flag is its value even when it begins with "-": a dynamic DNS
// key or a password may, and Node's parseArgs would refuse it as "ambiguous" (a multi-line
// message). Only a word that is itself one of the command's flags is left to mean that flag.

type Options = Record<string, { type: 'string' | 'boolean' }>;

/**
 * `--key -abc` → `--key=-abc` for string flags, unless `-abc` names a flag of this command.
 * `origins[i]` is the index in `args` of what became `out[i]`, so errors can give positions.
 */
export function joinDashValues(args: string[], options: Options): { args: string[]; origins: number[] } {
  const out: string[] = [];
  const origins: number[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    origins.push(i);
    const name = /^--([^=]+)$/.exec(arg)?.[1];
    if (arg === '--') {
      out.push(...args.slice(i));
      for (let j = i + 1; j < args.length; j++) origins.push(j);
      break;
    } else if (
      name &&
      options[name]?.type === 'string' &&
      next?.startsWith('-') &&
      !namesFlag(next, (n) => n in options)
    ) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return { args: out, origins };
}

/**
 * `--containers` given alone (last, or before another flag of the command) → `--containers=<its bare value>`; one
 * argument for one, so positions stay those of the command line.
 */
export function fillBareValues(
  args: string[],
  bare: Record<string, string>,
  isFlag: (name: string) => boolean,
): string[] {
  return args.map((arg, i) => {
    const name = /^--([^=]+)$/.exec(arg)?.[1];
    const next = args[i + 1];
    const alone = next === undefined || namesFlag(next, isFlag);
    return name !== undefined && bare[name] !== undefined && alone ? `${arg}=${bare[name]}` : arg;
  });
}

/** Whether a word after a flag is another flag of the command (then the first has no value). */
export function namesFlag(word: string, isFlag: (name: string) => boolean): boolean {
  if (word === '-h' || word === '--') return true;
  const name = /^--([^=]+)/.exec(word)?.[1];
  return name !== undefined && isFlag(name);
}

/** Node's "argument missing" and three-line "argument is ambiguous" (a flag followed by a flag), as one line. */
export function missingValueMessage(message: string): string {
  const flag = /^Option '(--[^' ]+)(?: <value>)?' argument (?:is ambiguous|missing)/.exec(message)?.[1];
  return flag ? `${flag} needs a value` : message;
}
