// Binding a ddedge HTTP server: a failure to listen is a configuration error naming the setting
// to change, and closing ends every connection (a keep-alive one would hold the close up).
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatListenAddress, listenError, type ListenAddress } from '../../lib/listen-address.js';

/**
 * Binds an HTTP(S) server to `listen` (a failure names `flag`, the setting to change), and hands
 * its later errors to `onError`; returns the port bound and a close that ends every connection.
 */
export async function listenHttp(
  server: http.Server,
  listen: ListenAddress,
  flag: string,
  onError: (error: Error) => void,
): Promise<{ port: number; close: () => Promise<void> }> {
  await new Promise<void>((resolve, reject) => {
    const shown = formatListenAddress(listen);
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(flag, shown, error)));
    server.listen({ host: listen.host, port: listen.port, exclusive: true }, () => resolve());
  });
  server.on('error', onError);
  return { port: (server.address() as AddressInfo).port, close: () => closeHttp(server) };
}

/** Stops listening and ends every connection, idle keep-alive ones included. */
export function closeHttp(server: http.Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
