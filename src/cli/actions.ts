// Commands whose first argument names an action (zone export|plan|apply, gateway keygen|check-keys,
// acme present|cleanup|certbot-auth|certbot-cleanup): the word is checked here, once, and its
// handler run with the arguments after it. A word that is no action is exit 2 with the actions
// (and the nearest) named, before any setting is read or anything is sent.
import { ConfigError } from '../lib/errors.js';
import { nearestNames } from '../lib/nearest-names.js';

type ActionHandler = (args: string[]) => Promise<number>;

export interface ActionTable {
  /** The command's name, as the messages say it. */
  command: string;
  actions: Record<string, ActionHandler>;
  /** What the command does without an action (the gateway serves); without it, an action is needed. */
  none?: { said: string; run: () => Promise<number> };
}

export function runAction(table: ActionTable, positionals: string[]): Promise<number> {
  const [action, ...args] = positionals;
  const names = Object.keys(table.actions);
  if (action === undefined && table.none) return table.none.run();
  const handler = action === undefined || !Object.hasOwn(table.actions, action) ? undefined : table.actions[action];
  if (handler) return handler(args);
  const near = action === undefined ? [] : nearestNames(action, names);
  const choices =
    `${table.none ? `${table.none.said}, or ` : ''}one of ` +
    `${names.join(', ')}${near.length ? ` (did you mean ${near.join(' or ')}?)` : ''}`;
  const unknown =
    action === undefined
      ? ''
      : ACTION_LIKE.test(action)
        ? `unknown action "${action}"; `
        : 'the first argument is no action; ';
  throw new ConfigError(`${table.command}: ${unknown}give ${choices} (see ddedge ${table.command} --help)`);
}

/**
 * What is quoted back: a word that may be a mistyped action. Anything else may be a secret (a
 * notification URL given to `notify` without `test`), hold control characters that would reach
 * the terminal, or be huge.
 */
const ACTION_LIKE = /^[a-z][a-z-]{0,31}$/i;
