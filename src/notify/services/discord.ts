// Discord (https://discord.com/developers/docs/resources/webhook#execute-webhook): POST to the
// webhook URL a JSON {content}; content is at most 2,000 characters.
import { textOf, titleOf } from '../message.js';
import { json, type ServiceShape } from '../outgoing.js';

export const discord: ServiceShape = {
  problem: (endpoint) =>
    /\/webhooks\/[^/]+\/[^/]+/.test(endpoint.pathname)
      ? undefined
      : 'Discord needs the webhook URL: discord://discord.com/api/webhooks/ID/TOKEN',
  build: (endpoint, event) => ({
    method: 'POST',
    url: new URL(endpoint),
    ...json({ content: `**${titleOf(event)}**\n${textOf(event)}`.slice(0, 2000) }),
  }),
};
