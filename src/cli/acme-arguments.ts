// Which arguments of `ddedge acme` main must not read as flags (in the entry: it decides
// before the command's module is loaded).

/**
 * `present|cleanup <fqdn> <value> [<ttl>]`: the record name, the value, and a TTL old lego
 * releases append. A value is 43 base64url characters: one that reads as a flag name
 * (`--no-wait`) is a flag, which a real value is with a chance of about 1 in 10^10.
 */
export function acmeLiteralArguments(args: string[]): number {
  const flagLike = (arg: string) => /^--[a-z][a-z0-9-]*(=.*)?$|^-[a-zA-Z]$/.test(arg);
  if (
    (args[0] !== 'present' && args[0] !== 'cleanup') ||
    args[1] === undefined ||
    args[1].startsWith('-') ||
    args[2] === undefined ||
    flagLike(args[2])
  )
    return 0;
  return args[3] !== undefined && /^\d+$/.test(args[3]) ? 4 : 3;
}
