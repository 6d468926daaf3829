// How a failure reaches the user: one line on stderr, and with --json also one JSON document
// on stdout, {"error":{"message","exitCode","kind"}}, so scripts never parse stderr.
import { DdedgeError, ExitCode } from '../lib/errors.js';
import { redact } from '../lib/redact.js';
import type { Io } from './io.js';

/** The kind of a failure by its exit code, when the error does not name a finer one. */
const KIND_BY_EXIT: Record<number, string> = {
  [ExitCode.internal]: 'internal',
  [ExitCode.usage]: 'usage',
  [ExitCode.auth]: 'auth',
  [ExitCode.transient]: 'transient',
  [ExitCode.partial]: 'partial',
  [ExitCode.addressUnknown]: 'address-unknown',
  [ExitCode.refused]: 'refused',
};

/** Whether the command line asks for JSON output (the flag of every command that has one). */
export const wantsJson = (argv: string[]): boolean =>
  argv.some((a) => a === '--json' || a === '--json=true' || a === '--json=1');

export function reportError(error: unknown, io: Io, json: boolean, argv: string[] = []): number {
  const known = error instanceof DdedgeError;
  const exitCode = known ? error.exitCode : ExitCode.internal;
  const message = known
    ? redact(error.message)
    : `internal error (please report it): ${redact((error as Error)?.stack ?? String(error))}`;
  io.stderr(stderrLine(message, argv, io.env));
  if (json) {
    const ownKind =
      known && typeof (error as { kind?: unknown }).kind === 'string'
        ? (error as unknown as { kind: string }).kind
        : undefined;
    const shown = known
      ? message
      : `internal error (please report it): ${redact((error as Error)?.message ?? String(error))}`;
    const kind = ownKind ?? KIND_BY_EXIT[exitCode] ?? 'internal';
    io.stdout(`${JSON.stringify({ error: { message: shown, exitCode, kind } })}\n`);
  }
  return exitCode;
}

/**
 * The failure in the form the logs have: a JSON line with --log-format json (containers set
 * DDEDGE_LOG_FORMAT=json), the error priority <3> on every line under journald, else text.
 * Read from the flag or the variable: the configuration itself may be what failed.
 */
function stderrLine(message: string, argv: string[], env: Io['env']): string {
  const at = argv.findIndex((a) => a === '--log-format' || a.startsWith('--log-format='));
  const format =
    at < 0 ? env.DDEDGE_LOG_FORMAT : argv[at]!.includes('=') ? argv[at]!.slice('--log-format='.length) : argv[at + 1];
  if (format === 'json') return `${JSON.stringify({ time: new Date().toISOString(), level: 'error', msg: message })}\n`;
  const text = `ddedge: ${message}`;
  return env.JOURNAL_STREAM
    ? `${text
        .split('\n')
        .map((line) => `<3>${line}`)
        .join('\n')}\n`
    : `${text}\n`;
}
