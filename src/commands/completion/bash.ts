import { AGENTS_BELOW, type ArgumentSpec, type CompletionSpec, FN, flags, words } from './spec.js';

// The bash script serves zsh too, through zsh's bashcompinit: one logic for both.

const quoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** zsh runs the bash function under its own emulation of bash's completion (sh rules, arrays from 0). */
export function zshScript(spec: CompletionSpec): string {
  return `# zsh completion for ${spec.names.join(' and ')}: add to ~/.zshrc, after compinit:
#   source <(agent completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bashScript(spec).split('\n').slice(2).join('\n')}`;
}

export function bashScript(spec: CompletionSpec): string {
  const all = [...spec.global, ...spec.commands.flatMap((c) => c.options)];
  const valued = new Map(all.filter((o) => o.value).flatMap((o) => flags([o]).map((flag) => [flag, o] as const)));
  const cases = (rows: Array<[pattern: string, body: string]>, indent = '    ') =>
    rows.map(([pattern, body]) => `${indent}${pattern}) ${body} ;;`).join('\n');
  const reply = (list: readonly string[]) => `COMPREPLY=($(compgen -W ${quoted(words(list))} -- "$cur"))`;
  const paths = (kind: 'file' | 'dir') => `${FN}_paths ${kind === 'dir' ? '-d' : '-f'}`;
  const argument = (a: ArgumentSpec): string =>
    a.words
      ? reply(a.words)
      : a.path
        ? paths(a.path)
        : a.commands
          ? `COMPREPLY=($(compgen -W "$(${FN}_subcommands "\${args[*]}")${a.topics ? ` $([[ \${#args[@]} -eq 0 ]] && echo ${quoted(words(a.topics))})` : ''}" -- "$cur"))`
          : a.byPrevious
            ? `case \${args[\${#args[@]}-1]} in ${Object.entries(a.byPrevious)
                .map(([w, next]) => `${quoted(w)}) ${argument(next)} ;;`)
                .join(' ')} esac`
            : ':';
  return `# bash completion for ${spec.names.join(' and ')}: agent completion bash > ~/.local/share/bash-completion/completions/agent
# (loaded when "agent" is first completed; for prediction-agent, the same file under that name), or source it
${FN}_subcommands() {
  case $1 in
${cases(spec.commands.filter((c) => c.subcommands.length).map((c) => [quoted(c.path), `echo ${words(c.subcommands)}`]))}
  esac
}
${FN}_options() {
  case $1 in
${cases(spec.commands.map((c) => [quoted(c.path), `echo ${words([...flags(c.options), ...flags(spec.global)])}`]))}
  esac
}
${FN}_paths() {
  compopt -o filenames 2>/dev/null
  COMPREPLY=($(compgen "$1" -- "$cur"))
}
# The agents made with --agent: the directories of the agents dir in the default config dir.
${FN}_agents() {
  local d
  for d in "${spec.configBase.xdg ? `\${XDG_CONFIG_HOME:-$HOME/${spec.configBase.home}}` : `$HOME/${spec.configBase.home}`}/${AGENTS_BELOW}"/*/; do
    [[ -d $d ]] || continue
    d=\${d%/}
    printf '%s\n' "\${d##*/}"
  done
}
${FN}() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} path= skip= w i
  local -a args=()
  COMPREPLY=()
  # The command path typed so far ("config set") and the arguments after it; an option's value is skipped.
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=\${COMP_WORDS[i]}
    if [[ -n $skip ]]; then skip=; continue; fi
    case $w in
      --*=*) continue ;;
      ${[...valued.keys()].join('|')}) skip=1; continue ;;
      -*) continue ;;
    esac
    if [[ \${#args[@]} -eq 0 && " $(${FN}_subcommands "$path") " == *" $w "* ]]; then
      path=\${path:+$path }$w
    else
      args+=("$w")
    fi
  done
  case $prev in
${cases(
  [...valued].map(([flag, o]) => [
    flag,
    o.choices
      ? reply(o.choices)
      : o.path
        ? paths(o.path)
        : o.agents
          ? `COMPREPLY=($(compgen -W "$(${FN}_agents)" -- "$cur"))`
          : ':',
  ]),
  '  ',
)}
    *)
      if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(${FN}_options "$path")" -- "$cur"))
      elif [[ -n $(${FN}_subcommands "$path") && \${#args[@]} -eq 0 ]]; then
        COMPREPLY=($(compgen -W "$(${FN}_subcommands "$path")" -- "$cur"))
      else
        case "$path#\${#args[@]}" in
${cases(
  spec.commands.flatMap((c) =>
    c.args.map((a, i): [string, string] => [
      a.commands ? `${quoted(`${c.path}#`)}*` : quoted(`${c.path}#${i}`),
      argument(a),
    ]),
  ),
  '          ',
)}
        esac
      fi
      ;;
  esac
}
complete -F ${FN} ${spec.names.join(' ')}
`;
}
