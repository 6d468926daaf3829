// `ddedge notify test [URL …]`: one test message to each URL, so that a person can check a
// URL before relying on it. Unlike a cycle's notifications, a failure here is the command's
// result (exit 4), since checking is all it does.
import { ConfigError, ExitCode } from '../../lib/errors.js';
import { parseNotifyTarget } from '../../notify/target.js';
import { runAction } from '../actions.js';
import type { CommandContext } from '../command.js';
import { printJson, setup } from '../setup.js';

export function run(context: CommandContext): Promise<number> {
  return runAction({ command: 'notify', actions: { test: (urls) => test(context, urls) } }, context.positionals);
}

async function test(context: CommandContext, urls: string[]): Promise<number> {
  const { config, logger } = await setup(context, 'notify');
  // Checked before anything is sent: a bad URL is exit 2 and nothing goes out.
  urls.forEach((url, i) => {
    parseNotifyTarget(url, urls.length === 1 ? 'the URL' : `URL ${i + 1} of ${urls.length}`);
  });
  const targets = urls.length ? urls : config.notify;
  if (!targets.length)
    throw new ConfigError(
      'notify test: no URL; give one (ddedge notify test URL) or set --notify / DDEDGE_NOTIFY / DDEDGE_NOTIFY_FILE',
    );
  const { Notifier } = await import('../../notify/notifier.js');
  const results = await new Notifier(targets, logger).test({
    event: 'test',
    time: new Date().toISOString(),
    message: 'This is a test message from ddedge: notifications to this URL work.',
  });
  if (context.flags.json) printJson(context, { results });
  else
    for (const r of results) context.io.stdout(`${r.target}: ${r.ok ? `sent (${r.detail})` : `failed: ${r.detail}`}\n`);
  return results.every((r) => r.ok) ? ExitCode.ok : ExitCode.transient;
}
