import { formats, listLength, oneOf, required, str } from '../params.js';
import { op } from './types.js';

export interface HelloData {
  ip: string;
  lang: string;
  version: string;
}
export interface IdnData {
  query: string;
  unicode: string;
  punycode: string;
}
export interface SuggestsData {
  query: string;
  suggests: Record<string, Record<string, boolean>>;
}
export interface TableData {
  items: { code: string; name: string }[];
}
export interface DigData {
  query: string;
  nameserver: string;
  type: string;
  result: string;
}
export interface ZoneCheckData {
  domain: string;
  nameservers: string[];
  result: { zonepass: boolean; report: string };
}

export const DIG_TYPES = ['A', 'AAAA', 'ANY', 'CNAME', 'MX', 'NS', 'SOA', 'TXT', 'CAA'] as const;

export const tool = {
  hello: op<HelloData>()({
    action: 'hello',
    describe: 'Connection test: the caller address as the API sees it, language and version',
    params: {},
    idempotent: true,
  }),
  idnConverter: op<IdnData>()({
    action: 'idnconverter',
    describe: 'Convert a name between Punycode and Unicode',
    params: { query: required(str('string or domain to convert')) },
    idempotent: true,
  }),
  domainSuggests: op<SuggestsData>()({
    action: 'domainsuggests',
    describe: 'Domain suggestions for a word (abusive use may ban the account)',
    params: {
      query: required(str('word or domain')),
      language: oneOf(['es', 'en', 'zh', 'fr', 'de', 'kr', 'pt', 'tr'] as const, 'default es'),
      tlds: str('comma-separated, of com, net, tv, cc (default com,net)', {
        format: {
          pattern: /^(com|net|tv|cc)(,(com|net|tv|cc))*$/,
          describe: 'a comma-separated list of com, net, tv, cc',
        },
      }),
    },
    idempotent: true,
  }),
  getTable: op<TableData>()({
    action: 'gettable',
    describe: 'A reference table: country codes, or Spanish organization types',
    // The spec's sample for countries sends the value `country`: accept both spellings.
    params: { tableType: required(oneOf(['countries', 'country', 'es_juridic'] as const)) },
    idempotent: true,
  }),
  dig: op<DigData>()({
    action: 'dig',
    describe: 'A DNS query through the provider',
    params: {
      query: required(str('domain', formats.domain)),
      type: required(oneOf(DIG_TYPES)),
      nameserver: required(str('DNS server name or IP')),
    },
    idempotent: true,
  }),
  zoneCheck: op<ZoneCheckData>()({
    action: 'zonecheck',
    describe: "Check a domain's zone on its DNS servers",
    params: {
      domain: required(str('domain', formats.domain)),
      nameservers: required(str('comma-separated, at least 2')),
    },
    rules: [listLength('nameservers', 2, 13)],
    idempotent: true,
  }),
};
