// A plain https:// URL (or generic+https://): the event as a JSON document, POSTed. Its strings
// are data for a program (controls escaped, bounded): a receiver that shows them escapes them
// for what it shows them in.
import { eventDocument } from '../message.js';
import { json, type ServiceShape } from '../outgoing.js';

export const webhook: ServiceShape = {
  problem: () => undefined,
  build: (endpoint, event) => ({ method: 'POST', url: new URL(endpoint), ...json(eventDocument(event)) }),
};
