import { ExitCode, exitCodeOf } from '../lib/errors.js';
import type { RecordType } from '../lib/address.js';

/** `updated`: the provider changed the record in this cycle. */
type Action = 'updated' | 'unchanged' | 'would-update' | 'failed';

/** One line of `ddedge update`: what happened to one record. */
export interface Outcome {
  host: string;
  type: RecordType;
  address: string;
  action: Action;
  via: 'dyndns' | 'api' | 'cache';
  message: string;
  /** For a host behind the router (NAME=<identifier>): the IPv6 prefix its address was built from. */
  prefix?: string;
  /** The address ddedge had sent before, when this cycle changed it. */
  previous?: string;
  error?: unknown;
}

/** The metrics' name for why a record failed. */
export function failureKind(error: unknown): string {
  const names: Record<number, string> = {
    1: 'internal',
    2: 'config',
    3: 'auth',
    4: 'transient',
    6: 'address_unknown',
    7: 'refused',
  };
  return names[exitCodeOf(error)] ?? 'internal';
}

/** Failures that need a person first, most urgent first; the first present decides. */
const FAILURE_PRECEDENCE: ExitCode[] = [
  ExitCode.internal,
  ExitCode.usage,
  ExitCode.auth,
  ExitCode.refused,
  ExitCode.transient,
  ExitCode.addressUnknown,
];

export function cycleExitCode(outcomes: readonly { action: string; error?: unknown }[]): ExitCode {
  const failures = outcomes.filter((o) => o.action === 'failed');
  if (!failures.length) return ExitCode.ok;
  if (failures.length < outcomes.length) return ExitCode.partial;
  const codes = new Set(failures.map((f) => exitCodeOf(f.error)));
  return FAILURE_PRECEDENCE.find((c) => codes.has(c)) ?? ExitCode.internal;
}
