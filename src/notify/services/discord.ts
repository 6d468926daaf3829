// Discord (https://discord.com/developers/docs/resources/webhook#execute-webhook): POST to the
// webhook URL a JSON {content}; content is at most 2,000 characters. Content is markdown, so
// outside text has every markdown and mention character escaped with a backslash (no masked link,
// no <@id> or <#id>, no @everyone), allowed_mentions allows none to ping whatever the text says,
// and SUPPRESS_EMBEDS keeps an address in it from becoming a preview.
import { textOf, titleOf } from '../message.js';
import { json, type ServiceShape } from '../outgoing.js';

/** The message flag that suppresses embeds (link previews). */
const SUPPRESS_EMBEDS = 1 << 2;

const discordText = (text: string): string => text.replace(/[\\*_~`|<>[\]()#@-]/g, '\\$&');

export const discord: ServiceShape = {
  problem: (endpoint) =>
    /\/webhooks\/[^/]+\/[^/]+/.test(endpoint.pathname)
      ? undefined
      : 'Discord needs the webhook URL: discord://discord.com/api/webhooks/ID/TOKEN',
  build: (endpoint, event) => ({
    method: 'POST',
    url: new URL(endpoint),
    ...json({
      content: `**${discordText(titleOf(event))}**\n${discordText(textOf(event))}`.slice(0, 2000),
      allowed_mentions: { parse: [] },
      flags: SUPPRESS_EMBEDS,
    }),
  }),
};
