// Moved into the one mapping of provider entries (provider-mapping.ts). Kept as a name only
// until its two last importers, the sandbox's and the gateway's zone views, are one zone view.
export { DEFAULT_TTL, recordOfEntry } from './provider-mapping.js';
