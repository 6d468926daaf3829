// An e-mail notification URL: smtp://USER:PASSWORD@HOST[:PORT]?from=ADDR&to=ADDR[,ADDR]
// (STARTTLS, port 587 by default) or smtps://… (TLS from the start, port 465). The password is a
// secret like the rest of the URL; the addresses are checked here, once, at start.
import { ConfigError } from '../../lib/errors.js';
import { registerSecret } from '../../lib/redact.js';
import type { MailRequest } from './smtp-session.js';

export type MailTarget = Omit<MailRequest, 'message' | 'timeoutMs'>;

const ADDRESS = /^[^\s<>@,;"()\\[\]]+@[^\s<>@,;"()\\[\]]+$/;
/** Recipients of one URL at most: a bound on a list read from a URL. */
const MAX_RECIPIENTS = 20;

export function parseMailTarget(url: URL, origin: string): MailTarget {
  const implicit = url.protocol === 'smtps:';
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  registerSecret(password);
  const from = url.searchParams.get('from') ?? '';
  const to = (url.searchParams.get('to') ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const usage = `${url.protocol}//USER:PASSWORD@HOST:PORT?from=ADDR&to=ADDR[,ADDR]`;
  if (!url.hostname) throw new ConfigError(`${origin}: an e-mail URL names its server: ${usage}`);
  if (!from) throw new ConfigError(`${origin}: from= is missing (the sender's address): ${usage}`);
  if (!ADDRESS.test(from)) throw new ConfigError(`${origin}: from= is not an e-mail address: ${usage}`);
  if (!to.length || to.length > MAX_RECIPIENTS || !to.every((a) => ADDRESS.test(a)))
    throw new ConfigError(`${origin}: to= needs 1 to ${MAX_RECIPIENTS} e-mail addresses, comma-separated: ${usage}`);
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : implicit ? 465 : 587,
    tls: implicit ? 'implicit' : 'starttls',
    user: user || undefined,
    password: password || undefined,
    from,
    to,
  };
}
