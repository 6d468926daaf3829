// A --notify URL: which service, and the endpoint to call. `https://…` is the generic JSON
// webhook; `SERVICE://…` is the service's own https URL (the one its documentation or its
// settings page gives) with the scheme naming the service; `SERVICE+https://…` says the same
// explicitly, and `SERVICE+http://…` reaches a loopback host (a local ntfy or Gotify). The
// https rule and its loopback exception are the HTTP layer's (url-policy.ts). The whole URL is
// a secret: it is registered for redaction, and shown only as "service at host".
import { checkUrl } from '../http/url-policy.js';
import { ConfigError } from '../lib/errors.js';
import { registerSecret, registerSecretUrl } from '../lib/redact.js';
import { parseMailTarget, type MailTarget } from './email/mail-target.js';
import { CHOSEN_EVENTS } from './message.js';
import type { ServiceShape } from './outgoing.js';
import { discord } from './services/discord.js';
import { gotify } from './services/gotify.js';
import { matrix } from './services/matrix.js';
import { ntfy } from './services/ntfy.js';
import { pushover } from './services/pushover.js';
import { slack } from './services/slack.js';
import { telegram } from './services/telegram.js';
import { webhook } from './services/webhook.js';

export const SERVICES = { generic: webhook, ntfy, gotify, discord, slack, telegram, matrix, pushover } satisfies Record<
  string,
  ServiceShape
>;
/** The services reached over HTTPS, and e-mail (SMTP). */
type ServiceName = keyof typeof SERVICES | 'email';

export interface NotifyTarget {
  service: ServiceName;
  endpoint: URL;
  /** E-mail: the server, the credentials and the addresses (smtp://, smtps://). */
  mail?: MailTarget;
  /** The events this URL receives (`?events=…`, which ddedge reads and does not send on); all when undefined. */
  events?: ReadonlySet<string>;
  /** "discord at discord.com": what messages and logs show. */
  shown: string;
}

export function parseNotifyTarget(text: string, origin: string): NotifyTarget {
  registerSecretUrl(text);
  const match = /^([a-z]+)(?:\+(https?))?:\/\//i.exec(text.trim());
  const scheme = match?.[1]?.toLowerCase();
  if (!match || !scheme)
    throw new ConfigError(
      `${origin}: a notification URL is https://… (a JSON webhook) or SERVICE://… with SERVICE one of ${Object.keys(
        SERVICES,
      )
        .filter((s) => s !== 'generic')
        .concat('smtp', 'smtps')
        .join(', ')}`,
    );
  if (scheme === 'smtp' || scheme === 'smtps') return mailTarget(text.trim(), origin);
  let service: Exclude<ServiceName, 'email'>;
  let transport: string;
  if ((scheme === 'https' || scheme === 'http') && !match[2]) {
    service = 'generic';
    transport = scheme;
  } else if (scheme in SERVICES) {
    service = scheme as Exclude<ServiceName, 'email'>;
    transport = match[2]?.toLowerCase() ?? 'https';
  } else {
    throw new ConfigError(
      `${origin}: unknown notification service "${scheme}"; use https://… (a JSON webhook) or one of ${Object.keys(
        SERVICES,
      )
        .filter((s) => s !== 'generic')
        .concat('smtp', 'smtps')
        .join(', ')}`,
    );
  }
  const endpoint = checkUrl(`${transport}://${text.trim().slice(match[0].length)}`, origin);
  const events = takeChosenEvents(endpoint, origin);
  registerParts(endpoint);
  const problem = SERVICES[service].problem(endpoint);
  if (problem) throw new ConfigError(`${origin}: ${problem}`);
  return { service, endpoint, events, shown: `${service === 'generic' ? 'webhook' : service} at ${endpoint.host}` };
}

function mailTarget(text: string, origin: string): NotifyTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`${origin}: not a URL; an e-mail one is smtp://USER:PASSWORD@HOST:PORT?from=ADDR&to=ADDR`);
  }
  const events = takeChosenEvents(url, origin);
  registerParts(url);
  return { service: 'email', endpoint: url, events, mail: parseMailTarget(url, origin), shown: `email at ${url.host}` };
}

/** `events=failing,recovered` in the query: ddedge's own choice of events, taken out of the URL the service gets. */
function takeChosenEvents(endpoint: URL, origin: string): ReadonlySet<string> | undefined {
  const given = endpoint.searchParams.getAll('events');
  if (!given.length) return undefined;
  endpoint.searchParams.delete('events');
  const names = given.flatMap((value) => value.split(',')).map((name) => name.trim().toLowerCase());
  const unknown = names.filter((name) => !(CHOSEN_EVENTS as readonly string[]).includes(name));
  if (unknown.length || !names.length)
    throw new ConfigError(
      `${origin}: events= names ${unknown.length ? `"${unknown.join(',')}", not ` : 'no '}events ddedge sends; ` +
        `choose among ${CHOSEN_EVENTS.join(', ')}`,
    );
  return new Set(names);
}

/** The path words the services' own documentation uses: not secrets, and masking them would garble messages. */
const PATH_WORDS = new Set(['webhooks', 'services', 'sendmessage', 'messages.json', 'message', '_matrix']);

/**
 * Tokens hide in every part of these URLs: the user, the password, the path (a ntfy topic is its
 * password), the query. The whole URL is a secret anyway (registerSecretUrl); a part alone is
 * masked wherever it appears, so only a part that looks like a token is: a word such as "hook" or
 * "server" masked in every message garbled them (and told which word the URL held).
 */
function registerParts(url: URL): void {
  registerSecret(decodeURIComponent(url.username));
  registerSecret(decodeURIComponent(url.password));
  for (const segment of url.pathname.split('/')) {
    const part = decodeURIComponent(segment);
    if (!PATH_WORDS.has(part.toLowerCase()) && looksLikeToken(part)) registerSecret(part);
  }
  for (const [name, value] of url.searchParams)
    if (TOKEN_PARAMETERS.test(name) || looksLikeToken(value)) registerSecret(value);
}

/** Query parameters whose value is a credential whatever it looks like. */
const TOKEN_PARAMETERS = /token|key|secret|pass|auth|sig/i;

/** A part long enough, or mixing letters and digits, to be a token rather than a word. */
export function looksLikeToken(part: string): boolean {
  return part.length >= 16 || (part.length >= 8 && /\d/.test(part) && /[a-z]/i.test(part));
}
