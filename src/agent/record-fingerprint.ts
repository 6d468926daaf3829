// What a person would change to make a refused record acceptable: where and how it is sent,
// with which credentials, into which zone. Stored in the state as a digest (never the
// secrets), so that a refusal's backoff starts over when any of it changes.
import type { Config } from '../config/config.js';
import type { RecordType } from '../lib/address.js';

export function recordFingerprint(config: Config, host: string, type: RecordType): string {
  const relevant = [host, type, config.via, config.service ?? null, config.dyndns, config.api];
  // node:crypto is loaded only when a record has been refused, not with every cycle.
  return process
    .getBuiltinModule('node:crypto')
    .createHash('sha256')
    .update(`ddedge-record-config\0${JSON.stringify(relevant)}`)
    .digest('base64url')
    .slice(0, 22);
}
