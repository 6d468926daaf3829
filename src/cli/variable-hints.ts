// A DDEDGE_ variable that is no setting is most often a misspelled one (DDEDGE_HOST for
// DDEDGE_HOSTS): read by nothing, it leaves the setting missing without a word. Named in the
// configuration error, with the settings it is nearest to.
import { GATEWAY_SETTINGS, SETTINGS, type Setting } from '../config/settings.js';
import { nearestNames } from '../lib/nearest-names.js';

const SETTING_VARIABLES: string[] = [SETTINGS, GATEWAY_SETTINGS]
  .flatMap((table) => Object.values(table as Record<string, Setting>))
  .flatMap((s) => (s.env ? (s.credential && !s.credentialIsFile ? [s.env, `${s.env}_FILE`] : [s.env]) : []));

/** One line per set DDEDGE_ variable that is not a setting but is near one: "did you mean". */
export function misspelledVariableHints(env: Record<string, string | undefined>): string[] {
  const known = new Set(SETTING_VARIABLES);
  const hints: string[] = [];
  for (const name of Object.keys(env).sort()) {
    if (!name.startsWith('DDEDGE_') || known.has(name) || env[name] === undefined) continue;
    const near = nearestNames(name, SETTING_VARIABLES).slice(0, 3);
    if (near.length) hints.push(`${name} is set but is not a setting: did you mean ${near.join(' or ')}?`);
  }
  return hints;
}
