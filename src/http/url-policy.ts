import { ConfigError } from '../lib/errors.js';
import { isLoopbackHost } from '../lib/address.js';
import { redactUrl } from '../lib/redact.js';

/**
 * The contract's rule: https everywhere, plain http only to loopback hosts (a local sandbox
 * or echo server). Returns the parsed URL or throws a ConfigError naming the setting.
 */
export function checkUrl(text: string, setting: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`${setting}: "${redactUrl(text)}" is not a URL; expected https://host[:port][/path]`);
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:') {
    if (isLoopbackHost(url.hostname)) return url;
    throw new ConfigError(
      `${setting}: http:// is allowed only for loopback hosts (127.0.0.0/8, ::1, localhost); use ` +
        `https://${url.host}${url.pathname}`,
    );
  }
  throw new ConfigError(`${setting}: unsupported scheme "${url.protocol}"; expected https://`);
}
