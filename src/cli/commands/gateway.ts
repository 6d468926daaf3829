// ddedge gateway: the registrar's zones behind a DNS front door (CONTRACT.md "The DNS gateway").
// `keygen` makes a TSIG key; `check-keys FILE` reads a keys file as the gateway would and says
// what each key may do (secrets never shown).
import { resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { ConfigError } from '../../errors.js';
import type { CommandContext } from '../command.js';
import { nearestNames } from '../nearest-names.js';

const ACTIONS = ['keygen', 'check-keys'];

export async function run(context: CommandContext): Promise<number> {
  const { flags, positionals, io } = context;
  const [action, argument, ...extra] = positionals;
  if (!action || !ACTIONS.includes(action)) {
    const near = action ? nearestNames(action, ACTIONS) : [];
    // Serving (UPDATE, queries, AXFR) is not in this build: say so rather than pretend.
    throw new ConfigError(
      `gateway: ${action ? `unknown action "${action}"; ` : ''}this build has ${ACTIONS.map((a) => `"gateway ${a}"`).join(' and ')}; serving DNS updates is not built yet${near.length ? ` (did you mean ${near.join(' or ')}?)` : ''}`,
    );
  }
  if (extra.length) throw new ConfigError(`gateway ${action}: ${extra.length} unexpected argument(s)`);
  if (action === 'keygen') {
    if (!argument) throw new ConfigError('gateway keygen: give the key name: ddedge gateway keygen NAME [--algorithm ALG]');
    const { keygenText } = await import('../../gateway/keygen.js');
    io.stdout(keygenText(argument, (flags.algorithm as string | undefined) ?? undefined));
    return 0;
  }
  const file = argument ?? (flags.keys as string | undefined);
  if (!file) throw new ConfigError('gateway check-keys: give the keys file: ddedge gateway check-keys FILE');
  const { loadKeysFile } = await import('../../gateway/keys-file.js');
  const keys = loadKeysFile(resolve(io.cwd, file), (path) => readFileSync(path, 'utf8'));
  for (const warning of keys.warnings) io.stderr(`gateway: warning: ${warning}\n`);
  for (const [name, key] of keys.keys) {
    const grants = keys.grants.filter((g) => g.key === name).map((g) => `${g.rule}${g.name ? ` ${g.rule === 'wildcard' ? '*.' : ''}${g.name}` : ''}${g.types.length ? ` ${g.types.join(' ')}` : ''}`);
    io.stdout(`${name} ${key.algorithm}: ${grants.length ? grants.join('; ') : 'no grants'}${keys.transfer.has(name) ? '; transfer' : ''}\n`);
  }
  return 0;
}
