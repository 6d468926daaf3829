/** What the policy layer asks of a wire implementation. */
export interface WireRequest {
  url: URL;
  method: 'GET' | 'POST' | 'PUT';
  headers: Record<string, string>;
  body?: string;
  /** Force IPv4 or IPv6, so an address source reports the address of the wanted family. */
  family?: 4 | 6;
  /** A unix socket that carries the request instead of the URL's host and port (a local engine's API). */
  socketPath?: string;
  /** Probe a connection that may stay quiet for long (a stream) this long after its last byte. */
  keepAliveMs?: number;
  signal: AbortSignal;
}

export interface WireResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: AsyncIterable<Uint8Array> & { destroy(error?: Error): void };
}

export interface Transport {
  send(request: WireRequest): Promise<WireResponse>;
  close?(): Promise<void>;
}

/** Connections at most per origin of a pooled transport: the provider's limit. */
export const API_CONNECTION_LIMIT = 3;
