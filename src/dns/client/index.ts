// The DNS client's public face: what ip/ sources, acme/ propagation checks and the sandbox use.
export { queryDns, showServer, type QueryOptions } from './query.js';
export {
  findAuthoritativeServers,
  parseDnsServer,
  systemResolvers,
  type AuthoritativeOptions,
  type AuthoritativeServer,
} from './servers.js';
export { DnsError, type DnsErrorKind } from '../wire/errors.js';
export {
  RCODE,
  rcodeName,
  type DnsAnswer,
  type DnsRecord,
  type DnsServer,
  type DnsType,
  type MxValue,
  type SrvValue,
  type SoaValue,
  type CaaValue,
} from '../wire/types.js';
