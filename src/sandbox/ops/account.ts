import { page, type Operations } from './common.js';

export const accountOps: Operations = {
  info: {
    handle: ({ model, callerAddress }) => {
      const { clientName, apiUser, balance, threshold, currency } = model.account;
      return { clientName, apiuser: apiUser, balance, threshold, currency, ip: callerAddress };
    },
  },
  promos: { handle: ({ model }) => model.promos },
  zones: {
    handle: ({ model, fields }) => {
      const zones = model.tlds
        .filter((t) => (!fields.tld || t.tld === fields.tld) && (!fields.tldtop || t.tldtop === fields.tldtop))
        .map((t) => {
          const promo = model.promos.some((p) => p.type === 'domain' && p.tld === t.tld);
          return {
            tld: t.tld,
            tldtop: t.tldtop,
            authcodereq: t.authcodereq,
            create: { price: t.create, years: t.years, ...(promo ? { inPromo: true } : {}) },
            renew: { price: t.renew, years: t.years },
            ...(t.transfer > 0 ? { transfer: { price: t.transfer, years: '1' } } : {}),
          };
        });
      const { slice, queryInfo } = page(zones, fields, 100);
      return { queryInfo, zones: slice };
    },
  },
};
