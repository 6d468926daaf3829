// Telegram Bot API (https://core.telegram.org/bots/api#sendmessage): POST
// /bot<token>/sendMessage with a JSON {chat_id, text}. The URL is
// telegram://api.telegram.org/bot<token>/sendMessage?chat_id=<chat>; the chat goes in the body.
// No parse_mode: the text is plain, neither HTML nor Markdown is read; no link preview either.
import { textOf, titleOf } from '../message.js';
import { json, without, type ServiceShape } from '../outgoing.js';

export const telegram: ServiceShape = {
  problem: (endpoint) => {
    if (!/\/bot[^/]+/.test(endpoint.pathname))
      return (
        'Telegram needs the bot token in the path: ' + 'telegram://api.telegram.org/bot<TOKEN>/sendMessage?chat_id=CHAT'
      );
    return endpoint.searchParams.get('chat_id') ? undefined : 'Telegram needs the chat: ?chat_id=CHAT';
  },
  build: (endpoint, event) => {
    const url = without(endpoint, 'chat_id');
    if (!url.pathname.endsWith('/sendMessage')) url.pathname = `${url.pathname.replace(/\/+$/, '')}/sendMessage`;
    return {
      method: 'POST',
      url,
      ...json({
        chat_id: endpoint.searchParams.get('chat_id'),
        text: `${titleOf(event)}\n${textOf(event)}`,
        link_preview_options: { is_disabled: true },
      }),
    };
  },
};
