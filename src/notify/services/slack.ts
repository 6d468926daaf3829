// Slack incoming webhooks (https://api.slack.com/messaging/webhooks): POST a JSON {text}.
import { textOf, titleOf } from '../message.js';
import { json, type ServiceShape } from '../outgoing.js';

export const slack: ServiceShape = {
  problem: () => undefined,
  build: (endpoint, event) => ({
    method: 'POST',
    url: new URL(endpoint),
    ...json({ text: `*${titleOf(event)}*\n${textOf(event)}` }),
  }),
};
