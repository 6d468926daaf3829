import { int, str } from '../params.js';
import { op, type QueryInfo } from './types.js';

export interface AccountInfo {
  clientName: string;
  apiuser: string;
  balance: number;
  threshold: number;
  currency: string;
  ip: string;
}
export interface Promotion {
  promo: string;
  type: 'domain' | 'ssl';
  action: string;
  price: number;
  tsIni: string;
  tsEnd: string;
  tld?: string;
  productID?: number;
}
export interface ZonePrice {
  price: number;
  years: string;
  inPromo?: boolean;
}
export interface Zone {
  tld: string;
  tldtop: string;
  authcodereq: boolean;
  requirements?: unknown;
  create?: ZonePrice;
  renew?: ZonePrice;
  transfer?: ZonePrice;
}

export const account = {
  info: op<AccountInfo>()({
    action: 'info',
    describe: 'Account data: balance, threshold, currency, caller address',
    params: {},
    idempotent: true,
  }),
  promos: op<Promotion[]>()({ action: 'promos', describe: 'Current promotions', params: {}, idempotent: true }),
  zones: op<{ queryInfo: QueryInfo; zones: Zone[] }>()({
    action: 'zones',
    describe: 'TLDs with their prices and rules',
    params: {
      pageLength: int('results per page (default 100)', { min: 1 }),
      page: int('page number (default 1)', { min: 1 }),
      tld: str('filter'),
      tldtop: str('filter on the top-level TLD'),
    },
    listKey: 'zones',
    idempotent: true,
  }),
};
