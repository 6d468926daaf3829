// The provider's error codes (field notes table) and what each means for the caller.
import { DdedgeError, ExitCode } from '../lib/errors.js';
import { outsideText } from '../lib/outside-text.js';

export type ApiErrorKind =
  | 'auth'
  | 'blocked'
  | 'transient'
  | 'refused'
  | 'not-found'
  | 'bad-request'
  | 'billing'
  | 'unknown';

const KIND_BY_CODE = new Map<number, ApiErrorKind>();
const declare = (kind: ApiErrorKind, codes: number[]) => {
  for (const c of codes) KIND_BY_CODE.set(c, kind);
};
declare('unknown', [1]);
declare('bad-request', [100, 101, 102, 104, 105, 2001, 2002, 3002]);
declare('auth', [103, 200, 201, 210, 300, 1001, 1002, 1003, 1004, 1005, 1009]);
declare('blocked', [1000, 1006, 1007, 1010, 1011, 1012, 1013, 1014, 1030]);
declare('billing', [1100]);
declare('transient', [2003, 2004, 2007]);
declare('not-found', [2008, 3001, 4001, 4002, 5001]);
declare(
  'refused',
  [
    2005, 2006, 2009, 2010, 2011, 2012, 2100, 2101, 2102, 2200, 2201, 2202, 2210, 3003, 3500, 3501, 3502, 4003, 4004,
    4005, 4006, 4007, 4008, 4009, 4010, 5000, 10001,
  ],
);

export function apiErrorKind(code: number): ApiErrorKind {
  return KIND_BY_CODE.get(code) ?? 'unknown';
}

/** auth and blocked both mean "stop calling until a person acts" (the contract's code 3). */
const EXIT_BY_KIND: Record<ApiErrorKind, ExitCode> = {
  auth: ExitCode.auth,
  blocked: ExitCode.auth,
  transient: ExitCode.transient,
  refused: ExitCode.refused,
  'not-found': ExitCode.refused,
  'bad-request': ExitCode.refused,
  billing: ExitCode.refused,
  unknown: ExitCode.refused,
};

const ADVICE: Partial<Record<ApiErrorKind, string>> = {
  auth: 'check DDEDGE_API_USER and DDEDGE_API_PASSWORD',
  blocked: "the account or this machine's address is blocked or not on the API allow-list; ask the provider",
  billing: 'add balance to the account',
};

/**
 * The parts of a reason, each said once: a part an earlier one already holds ("invalid password" after "Account invalid
 * password") is left out.
 */
function withoutRepeats(parts: string[]): string[] {
  const kept: string[] = [];
  for (const part of parts) {
    const text = part?.trim();
    if (text && !kept.some((k) => k.toLowerCase().includes(text.toLowerCase()))) kept.push(text);
  }
  return kept;
}

/** An answer with success:false. `errorCode` is the provider's; transport failures are never ApiErrors. */
export class ApiError extends DdedgeError {
  readonly kind: ApiErrorKind;
  constructor(
    readonly errorCode: number,
    readonly errorCodeMsg: string,
    readonly messages: string[],
    readonly action: string,
    /**
     * For rejected credentials: what to check, as the caller set them (e.g. "check --api-user and
     * DDEDGE_API_PASSWORD_FILE").
     */
    authAdvice?: string,
  ) {
    const kind = apiErrorKind(errorCode);
    const detail = outsideText(withoutRepeats([errorCodeMsg, ...messages]).join('; '));
    const text = kind === 'auth' && authAdvice ? authAdvice : ADVICE[kind];
    const advice = text ? ` (${text})` : '';
    super(`${action} failed with error ${errorCode}: ${detail || 'no reason given'}${advice}`, EXIT_BY_KIND[kind]);
    this.kind = kind;
  }
}

/**
 * A listing that did not end where a list ends: more pages than the cap, or the same page
 * again while the total says more. Transient (exit 4): nothing was decided from a partial list.
 */
export class PagingError extends DdedgeError {
  constructor(message: string) {
    super(message, ExitCode.transient);
  }
}
