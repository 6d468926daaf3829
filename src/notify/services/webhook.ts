// A plain https:// URL (or generic+https://): the event as a JSON document, POSTed.
import { eventDocument } from '../message.js';
import { json, type ServiceShape } from '../outgoing.js';

export const webhook: ServiceShape = {
  problem: () => undefined,
  build: (endpoint, event) => ({ method: 'POST', url: new URL(endpoint), ...json(eventDocument(event)) }),
};
