// A pass-through HTTP proxy in front of a server (the sandbox) that can hold one chosen request
// until the test lets it go: the test decides when a provider answer arrives, instead of a
// sandbox `slow` fault and a guess of how long the client needs meanwhile.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Hold {
  /** Resolves once the held request has arrived (it is not yet passed on). */
  arrived: Promise<void>;
  /** Passes the held request on (or, when it has not arrived yet, lets it through when it does). */
  release(): void;
  /** Never passes the held request on: its connection is closed, as a provider gone mid-request would. */
  drop(): void;
}

export interface HoldingProxy {
  url: string;
  /** Holds the next request whose path contains `path` (e.g. `service/dnslist`). */
  hold(path: string): Hold;
  close(): Promise<void>;
}

export async function startHoldingProxy(target: string): Promise<HoldingProxy> {
  const holds: { path: string; arrive: () => void; decided: Promise<'pass' | 'drop'> }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const i = holds.findIndex((h) => (req.url ?? '').includes(h.path));
      const hold = i < 0 ? undefined : holds.splice(i, 1)[0]!;
      hold?.arrive();
      void (hold?.decided ?? Promise.resolve('pass')).then((decision) => {
        if (decision === 'drop') return void req.socket.destroy();
        const out = http.request(
          new URL(req.url ?? '/', target),
          { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        out.on('error', () => res.destroy());
        out.end(Buffer.concat(chunks));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hold: (path) => {
      let arrive!: () => void;
      let decide!: (decision: 'pass' | 'drop') => void;
      const arrived = new Promise<void>((r) => (arrive = r));
      const decided = new Promise<'pass' | 'drop'>((r) => (decide = r));
      holds.push({ path, arrive, decided });
      return { arrived, release: () => decide('pass'), drop: () => decide('drop') };
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
