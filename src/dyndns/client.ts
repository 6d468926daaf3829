// The dynamic DNS interface: GET <url>/<format>/?user=…&password=…&host=…&ip=…
// The key goes in `password` by default: the field notes found the real server rejects the
// spec's `apikey` with "Incorrect data". An empty `ip` asks the server to use the address
// the request comes from.
import { DdedgeError, ExitCode } from '../lib/errors.js';
import { TransportError } from '../http/errors.js';
import { expectSuccessStatus, httpRequest } from '../http/request.js';
import type { Transport } from '../http/transport.js';
import { silentLogger, type Logger } from '../lib/log.js';
import { outsideText } from '../lib/outside-text.js';
import { redactUrl } from '../lib/redact.js';
import { checkAnswerMatches } from './contradiction.js';
import { MalformedAnswer, parseDyndnsAnswer } from './parse.js';
import { refusalKind } from './refusal.js';
import type { DyndnsFormat, DyndnsResult } from './result.js';

export type DyndnsKeyParam = 'password' | 'apikey';

interface DyndnsSettings {
  url: string;
  format: DyndnsFormat;
  user: string;
  key: string;
  keyParam: DyndnsKeyParam;
  timeoutMs: number;
  /** Carries the request (the agent passes one that counts its calls); default node:http(s). */
  transport?: Transport;
  /** What a rejection of the credentials advises checking, as they were set (default: the variables). */
  authAdvice?: string;
}

/** The provider refused the update; `kind` tells whether the credentials are at fault. */
export class DyndnsError extends DdedgeError {
  constructor(
    readonly kind: 'auth' | 'refused',
    message: string,
    readonly messages: string[],
  ) {
    super(message, kind === 'auth' ? ExitCode.auth : ExitCode.refused);
  }
}

function dyndnsUrl(settings: DyndnsSettings, host: string, ip: string): string {
  const url = new URL(`${settings.format}/`, settings.url.endsWith('/') ? settings.url : `${settings.url}/`);
  url.searchParams.set('user', settings.user);
  url.searchParams.set(settings.keyParam, settings.key);
  url.searchParams.set('host', host);
  url.searchParams.set('ip', ip);
  url.searchParams.set('lang', 'en');
  return url.toString();
}

/** Sends one update; resolves with the provider's successful answer or throws a typed error. */
export async function sendDyndnsUpdate(
  settings: DyndnsSettings,
  host: string,
  ip: string,
  logger: Logger = silentLogger,
): Promise<DyndnsResult> {
  const url = dyndnsUrl(settings, host, ip);
  logger.debug('dynamic DNS request', { url: redactUrl(url) });
  const response = expectSuccessStatus(
    await httpRequest({
      url,
      timeoutMs: settings.timeoutMs,
      setting: '--dyndns-url',
      unreachable: {
        server: 'the dynamic DNS service (or ddedge sandbox)',
        setting: '--dyndns-url / DDEDGE_DYNDNS_URL',
      },
      transport: settings.transport,
    }),
  );
  // Redacted before it is cut (outsideText), so a key that straddles the cut is not shown in part.
  logger.debug('dynamic DNS answer', { status: response.status, body: outsideText(response.body, 200) });
  let result: DyndnsResult;
  try {
    result = parseDyndnsAnswer(settings.format, response.body);
  } catch (error) {
    if (!(error instanceof MalformedAnswer)) throw error;
    throw new TransportError(
      'malformed',
      `malformed ${settings.format} answer from ${response.shownUrl}: ${error.message}`,
      response.shownUrl,
    );
  }
  if (result.success) {
    checkAnswerMatches(result, host, ip);
    return result;
  }
  const text = outsideText(result.messages.join('; ')) || 'no reason given';
  const kind = refusalKind(result);
  const advice = kind === 'auth' ? ` (${settings.authAdvice ?? 'check DDEDGE_DYNDNS_USER and DDEDGE_DYNDNS_KEY'})` : '';
  throw new DyndnsError(kind, `dynamic DNS refused ${host}: ${text}${advice}`, result.messages);
}
