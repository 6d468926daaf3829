// The sandbox's account: credentials, hosting services and their DNS zones. Plain data, so
// it can be saved to --data and read back.
import type { DnsEntry } from '../api/endpoints/service.js';

export interface SandboxService {
  name: string;
  type: string;
  productkey: string;
  status: string;
  tsExpir: string;
  dns: DnsEntry[];
}

export interface SandboxModel {
  account: { apiUser: string; apiPassword: string; dyndnsUser: string; dyndnsKey: string };
  services: SandboxService[];
  nextEntityId: number;
}

/** Demo credentials: printed at start, meant to be copied; they protect nothing real. */
export const DEMO_ACCOUNT = {
  apiUser: 'demo-user',
  apiPassword: 'demo-api-password',
  dyndnsUser: 'demo-user',
  dyndnsKey: 'demo-dyndns-key',
} as const;

const entry = (entityID: number, name: string, type: string, value: string, priority = '-'): DnsEntry => ({
  entityID: String(entityID),
  name,
  type,
  ttl: '-',
  priority,
  value,
});

export function demoModel(): SandboxModel {
  const nextYear = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
  return {
    account: { ...DEMO_ACCOUNT },
    services: [
      {
        name: 'example.com',
        type: 'Hosting Basic',
        productkey: 'basic',
        status: 'active',
        tsExpir: nextYear,
        dns: [
          entry(1, 'example.com', 'A', '192.0.2.10'),
          entry(2, 'www.example.com', 'CNAME', 'example.com'),
          entry(3, 'home.example.com', 'A', '192.0.2.20'),
          entry(4, 'example.com', 'MX', 'mail.example.com', '10'),
          entry(5, 'example.com', 'TXT', 'v=spf1 mx -all'),
        ],
      },
      {
        name: 'example.net',
        type: 'Redirection and parking',
        productkey: 'redir',
        status: 'active',
        tsExpir: nextYear,
        dns: [entry(6, 'example.net', 'A', '192.0.2.30')],
      },
    ],
    nextEntityId: 7,
  };
}

export function findService(model: SandboxModel, name: unknown): SandboxService | undefined {
  return model.services.find((s) => s.name === String(name ?? '').toLowerCase());
}
