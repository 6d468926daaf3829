// The DNS client's public face: what ip/ sources, acme/ propagation checks and the sandbox use.
export { queryDns, showServer } from './query.js';
export {
  findAuthoritativeServers,
  parseDnsServer,
  systemResolvers,
} from './servers.js';
export { DnsError } from '../wire/errors.js';
export {
  RCODE,
  rcodeName,
  type DnsAnswer,
  type DnsRecord,
  type DnsServer,
  type DnsType,
  type SoaValue,
} from '../wire/types.js';
