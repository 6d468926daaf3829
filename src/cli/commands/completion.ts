// ddedge completion [bash|zsh]: a completion script generated from the same declarations
// the parser reads (commands, flags, allowed values, the API table), so it cannot drift.
import { API } from '../../api/endpoints/index.js';
import type { Endpoint } from '../../api/endpoints/types.js';
import { fileFlagOf, SETTINGS, type Setting } from '../../config/settings.js';
import { ConfigError } from '../../lib/errors.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { CONNECTION_FLAGS, OWN_FLAGS } from '../api-arguments.js';

const quote = (words: string[]) => words.join(' ');

/** The first word of commands that take an action (as zone.ts and acme.ts accept them). */
const ACTIONS_OF: Record<string, string[]> = {
  zone: ['export', 'plan', 'apply'],
  acme: ['present', 'cleanup', 'certbot-auth', 'certbot-cleanup'],
};

export function bashCompletion(commands: readonly CommandSpec[]): string {
  const settings = Object.values(SETTINGS as Record<string, Setting>);
  const flagsOf = (name: string) => {
    const command = commands.find((c) => c.name === name)!;
    return [
      ...(command.settings
        ? settings.flatMap((s) => [s.flag, fileFlagOf(s)].filter(Boolean).map((f) => `--${f}`))
        : []),
      ...Object.keys(command.flags).map((f) => `--${f}`),
      '--help',
    ];
  };
  const valueCases = settings
    .filter((s) => s.values || s.kind === 'boolean')
    .map(
      (s) =>
        `    --${s.flag}) COMPREPLY=( $(compgen -W "${quote([...(s.values ?? ['true', 'false'])])}" -- "$cur") ); ` +
        `return ;;`,
    );
  // api and completion take words of their own (below), not flags from the table.
  const commandCases = commands
    .filter((c) => c.name !== 'api' && c.name !== 'completion')
    .map((c) => `    ${c.name}) opts="${quote(flagsOf(c.name))}" ;;`);
  const modules = Object.keys(API);
  const actionCases = modules.map(
    (m) =>
      `        ${m}) COMPREPLY=( $(compgen -W ` +
      `"${quote([...Object.values(API[m as keyof typeof API]).map((e) => e.action), '--help'])}" -- "$cur") ) ;;`,
  );
  const apiFlags = [...OWN_FLAGS, ...CONNECTION_FLAGS].map((f) => `--${f}`);
  const paramCases = modules.flatMap((m) =>
    Object.values(API[m as keyof typeof API] as Record<string, Endpoint>).map(
      (e) =>
        `        ${m}/${e.action}) opts="${quote([...Object.keys(e.params).map((p) => `--${p}`), ...apiFlags])}" ;;`,
    ),
  );
  return (
    `# ddedge completion for bash (zsh: autoload -U +X bashcompinit && bashcompinit, then source this).
# Install: ddedge completion bash > /etc/bash_completion.d/ddedge
_ddedge() {
  local cur prev cmd opts
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  cmd="\${COMP_WORDS[1]}"
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=( $(compgen -W "${quote([...commands.map((c) => c.name), '--help', '--version'])}" -- "$cur") )
    return
  fi
  case "$prev" in
${valueCases.join('\n')}
    --env-file|--dotenv|--state-dir|--metrics-file|--data|--tls-cert|--tls-key) COMPREPLY=( $(compgen -f -- "$cur") ` +
    `); return ;;
  esac
  if [ "$COMP_CWORD" -eq 2 ]; then
    case "$cmd" in
${Object.entries(ACTIONS_OF)
  .map(
    ([name, actions]) =>
      `      ${name}) COMPREPLY=( $(compgen -W "${quote([...actions, '--help'])}" -- "$cur") ); return ;;`,
  )
  .join('\n')}
    esac
  fi
  case "$cmd" in
${commandCases.join('\n')}
    api)
      if [ "$COMP_CWORD" -eq 2 ]; then COMPREPLY=( $(compgen -W "list ${quote(modules)} --help" -- "$cur") ); return; fi
      if [ "$COMP_CWORD" -eq 3 ]; then
        case "\${COMP_WORDS[2]}" in
${actionCases.join('\n')}
        esac
        return
      fi
      case "\${COMP_WORDS[2]}/\${COMP_WORDS[3]}" in
${paramCases.join('\n')}
        *) opts="${quote(apiFlags)}" ;;
      esac ;;
    completion) opts="bash zsh" ;;
  esac
  COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
}
complete -o default -F _ddedge ddedge
`
  );
}

export async function run(context: CommandContext): Promise<number> {
  const shell = context.positionals[0] ?? 'bash';
  if (shell !== 'bash' && shell !== 'zsh')
    throw new ConfigError(`completion: "${shell}" is not a shell ddedge completes; use bash or zsh`);
  context.io.stdout(
    shell === 'zsh'
      ? `autoload -U +X bashcompinit && bashcompinit\n${bashCompletion(context.commands)}`
      : bashCompletion(context.commands),
  );
  return 0;
}
