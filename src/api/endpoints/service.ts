// The service operations the agent needs; the rest of the module comes with the full SDK.
import { int, oneOf, required, str } from '../params.js';
import { paging, type Module } from './types.js';

export const DNS_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'SRV', 'TXT', 'NS', 'CAA'] as const;
const SERVICE_STATUS = ['init', 'active', 'inactive', 'renewed', 'renewable'] as const;

export const service = {
  list: {
    describe: 'List hosting services',
    params: { ...paging, name: str('exact service name'), word: str('substring'), tld: str(), renewable: { type: 'boolean' }, status: oneOf(SERVICE_STATUS) },
    listKey: 'services',
    idempotent: true,
  },
  dnslist: {
    describe: "List the entries of a service's DNS zone",
    params: { serviceName: required(str('service name')), ...paging, filter: str(), filterType: oneOf(DNS_TYPES), filterValue: str() },
    listKey: 'dns',
    idempotent: true,
  },
  dnscreate: {
    describe: 'Create a DNS zone entry',
    params: {
      serviceName: required(str('service name')),
      name: required(str('entry name')),
      type: required(oneOf(DNS_TYPES)),
      value: required(str()),
      ttl: int('seconds', { min: 0 }),
      priority: int('MX/SRV priority (default 10)', { min: 0 }),
    },
  },
  dnsupdate: {
    describe: 'Change the value of a DNS zone entry',
    params: {
      serviceName: required(str('service name')),
      entityID: required(str('entry id')),
      value: required(str()),
      ttl: int('seconds', { min: 0 }),
      priority: int('MX/SRV priority (default 10)', { min: 0 }),
    },
    // Setting an entry to a given value twice leaves it as once.
    idempotent: true,
  },
} satisfies Module;

export interface QueryInfo {
  page: number;
  pageLength: number;
  results: number;
  total: number;
}

export interface DnsEntry {
  entityID: string;
  name: string;
  type: string;
  ttl: string;
  priority: string;
  value: string;
}

export interface ServiceSummary {
  name: string;
  status: string;
  type: string;
  productkey: string;
  tsExpir: string;
}
