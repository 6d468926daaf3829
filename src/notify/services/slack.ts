// Slack incoming webhooks (https://api.slack.com/messaging/webhooks): POST a JSON {text}. Slack
// reads &, < and > as control characters (<!channel>, <@user>, <url|label>); outside text has
// them escaped as entities, as Slack's formatting reference says, so none of it forms a mention,
// a channel reference or a link with a label of its choosing. No link_names: a bare @here or
// #channel stays text.
import { textOf, titleOf } from '../message.js';
import { json, type ServiceShape } from '../outgoing.js';

const slackText = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export const slack: ServiceShape = {
  problem: () => undefined,
  build: (endpoint, event) => ({
    method: 'POST',
    url: new URL(endpoint),
    ...json({ text: `*${slackText(titleOf(event))}*\n${slackText(textOf(event))}` }),
  }),
};
