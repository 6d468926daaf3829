// A local IPv6 echo source whose answer a test changes (a new delegated prefix), on ::1.
// Where this machine has no IPv6 loopback it listens on 127.0.0.1 instead (the agent asks
// a url: source for an IPv6 address in the body either way) and says so.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Ipv6Echo {
  url: string;
  /** Where it listens: '::1', or '127.0.0.1' without IPv6. */
  host: string;
  hits: number;
  set(address: string): void;
  close(): Promise<void>;
}

export async function startIpv6Echo(address: string): Promise<Ipv6Echo> {
  let answer = address;
  const echo: Ipv6Echo = { url: '', host: '::1', hits: 0, set: (a) => (answer = a), close: async () => {} };
  const server = http.createServer((_req, res) => {
    echo.hits++;
    res.end(`${answer}\n`);
  });
  try {
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '::1', resolve));
  } catch {
    echo.host = '127.0.0.1';
    console.warn('no IPv6 loopback (::1) here: the IPv6 echo source listens on 127.0.0.1');
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  }
  const { port } = server.address() as AddressInfo;
  echo.url = echo.host === '::1' ? `http://[::1]:${port}/` : `http://127.0.0.1:${port}/`;
  echo.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return echo;
}
