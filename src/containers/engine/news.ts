/** A running container as the engine reports it: only what naming needs. */
export interface ContainerSeen {
  readonly id: string;
  /** The container's name without the leading slash the Docker API puts before it. */
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
}

/**
 * What the engine says, in the order it said it. `running` is the whole set of running containers:
 * sent when the watch starts and again after every reconnect (a stop missed while away is seen as
 * absence from it). `lost` means the engine cannot be reached; names are kept while it is away.
 */
export type ContainerNews =
  | { readonly kind: 'running'; readonly containers: readonly ContainerSeen[] }
  | { readonly kind: 'started'; readonly container: ContainerSeen }
  | { readonly kind: 'stopped'; readonly id: string }
  | { readonly kind: 'lost'; readonly reason: string };

/** A watch that is running; `stop()` closes its connection and ends its timers. */
export interface ContainerWatch {
  stop(): Promise<void>;
}
