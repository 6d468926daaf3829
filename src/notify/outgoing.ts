// The request one service wants for one event: each file in services/ builds one.
interface Outgoing {
  method: 'POST' | 'PUT';
  url: URL;
  headers: Record<string, string>;
  body: string;
}

export interface ServiceShape {
  /** What the URL lacks for this service (a chat, a room, a token), or undefined. */
  problem(endpoint: URL): string | undefined;
  build(endpoint: URL, event: import('./message.js').NotifyEvent): Outgoing;
}

export const json = (value: unknown): { headers: Record<string, string>; body: string } => ({
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(value),
});

/** The URL without its credentials in the query (sent in headers or the body instead). */
export function without(endpoint: URL, ...params: string[]): URL {
  const url = new URL(endpoint);
  for (const p of params) url.searchParams.delete(p);
  url.username = '';
  url.password = '';
  return url;
}
