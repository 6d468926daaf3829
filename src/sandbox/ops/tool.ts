import { domainToASCII, domainToUnicode } from 'node:url';
import type { Operations } from './common.js';
import { fail } from './common.js';
import { SANDBOX_API_VERSION } from '../version.js';

const COUNTRIES = [
  ['ES', 'Spain'],
  ['PT', 'Portugal'],
  ['FR', 'France'],
  ['DE', 'Germany'],
  ['IT', 'Italy'],
  ['GB', 'United Kingdom'],
  ['US', 'United States'],
  ['MX', 'Mexico'],
  ['AR', 'Argentina'],
];
const ES_JURIDIC = [
  ['1', 'Persona física'],
  ['39', 'Agrupación de interés económico'],
  ['47', 'Asociación'],
  ['612', 'Sociedad anónima'],
  ['524', 'Sociedad limitada'],
];

export const toolOps: Operations = {
  hello: { handle: ({ callerAddress }) => ({ ip: callerAddress, lang: 'en', version: SANDBOX_API_VERSION }) },
  idnconverter: {
    handle: ({ fields }) => {
      const query = fields.query!;
      const punycode = domainToASCII(query) || query;
      return { query, unicode: domainToUnicode(punycode) || query, punycode };
    },
  },
  domainsuggests: {
    handle: ({ fields, model }) => {
      const word = fields
        .query!.split('.')[0]!
        .toLowerCase()
        .replace(/[^a-z0-9-]/g, '');
      const tlds = (fields.tlds ?? 'com,net').split(',');
      const owned = new Set([...model.domains.map((d) => d.name), ...model.taken]);
      const suggests: Record<string, Record<string, boolean>> = {};
      for (const candidate of [word, `my${word}`, `${word}online`, `get${word}`]) {
        suggests[candidate] = Object.fromEntries(tlds.map((tld) => [tld, !owned.has(`${candidate}.${tld}`)]));
      }
      return { query: fields.query, suggests };
    },
  },
  gettable: {
    handle: ({ fields }) => ({
      items: (fields.tableType === 'es_juridic' ? ES_JURIDIC : COUNTRIES).map(([code, name]) => ({ code, name })),
    }),
  },
  dig: {
    handle: ({ fields, model }) => {
      const query = fields.query!.toLowerCase();
      const answers = model.services
        .flatMap((s) => s.dns)
        .filter((e) => e.name === query && (fields.type === 'ANY' || e.type === fields.type));
      const result = answers.length
        ? answers
            .map(
              (e) =>
                `${e.name}.\t${e.ttl === '-' ? 3600 : e.ttl}\tIN\t${e.type}\t${
                  e.priority !== '-' ? `${e.priority} ` + `` : ''
                }${e.value}`,
            )
            .join('\n')
        : `;; ${query} ${fields.type}: no answer`;
      return { query, nameserver: fields.nameserver, type: fields.type, result };
    },
  },
  zonecheck: {
    handle: ({ fields, model }) => {
      const nameservers = fields.nameservers!.split(',').map((s) => s.trim());
      const known = model.domains.some((d) => d.name === fields.domain);
      if (!known && !model.services.some((s) => s.name === fields.domain))
        fail(2008, 'Domain not found', `${fields.domain} is not in this account`);
      return {
        domain: fields.domain,
        nameservers,
        result: {
          zonepass: nameservers.length >= 2,
          report: `checked ${nameservers.length} servers: SOA serials agree`,
        },
      };
    },
  },
};
