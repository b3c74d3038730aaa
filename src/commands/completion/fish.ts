import { AGENTS_BELOW, type ArgumentSpec, type CompletionSpec, FN, flags, type OptionSpec, words } from './spec.js';

export function fishScript(spec: CompletionSpec): string {
  const [name, ...others] = spec.names;
  const all = [...spec.global, ...spec.commands.flatMap((c) => c.options)];
  const valued = [...new Set(flags(all.filter((o) => o.value)))];
  const fishQuote = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  const complete = (condition: string | undefined, rest: string) =>
    `complete -c ${name} ${condition ? `-n ${fishQuote(condition)} ` : ''}${rest}`;
  const option = (o: OptionSpec, condition?: string) => {
    const names = [o.long && `-l ${o.long.slice(2)}`, o.short && `-s ${o.short.slice(1)}`].filter(Boolean).join(' ');
    const value = o.choices
      ? ` -x -a ${fishQuote(words(o.choices))}`
      : o.path
        ? ` -r -F${o.path === 'dir' ? ' -a "(__fish_complete_directories)"' : ''}`
        : o.agents
          ? ` -x -a "(${FN}_agents)"`
          : o.value
            ? ' -x'
            : '';
    return complete(condition, `${names}${value} -d ${fishQuote(o.description)}`);
  };
  const at = (path: string, n: number) => `${FN}_at ${fishQuote(path)} ${n}`;
  const argument = (condition: string, a: ArgumentSpec): string[] =>
    a.words
      ? [complete(condition, `-a ${fishQuote(words(a.words))}`)]
      : a.path
        ? [complete(condition, '-F')]
        : a.commands
          ? [
              complete(`${FN}_at help -1`, `-a "(${FN}_subcommands (${FN}_args))"`),
              ...(a.topics ? [complete(`${FN}_at help 0`, `-a ${fishQuote(words(a.topics))}`)] : []),
            ]
          : Object.entries(a.byPrevious ?? {}).flatMap(([previous, next]) =>
              argument(`${condition}; and test (${FN}_args)[-1] = ${fishQuote(previous)}`, next),
            );
  const describe = spec.commands.flatMap((c) =>
    c.path === ''
      ? []
      : [
          complete(
            at(c.path.split(' ').slice(0, -1).join(' '), 0),
            `-a ${fishQuote(c.path.split(' ').at(-1) ?? '')} -d ${fishQuote(c.description)}`,
          ),
        ],
  );
  return `# fish completion for ${spec.names.join(' and ')}: agent completion fish > ~/.config/fish/completions/${name}.fish
${others.map((other) => `# (and for ${other}: echo 'complete -c ${other} -w ${name}' > ~/.config/fish/completions/${other}.fish)`).join('\n')}
function ${FN}_subcommands
    switch "$argv"
${spec.commands
  .filter((c) => c.subcommands.length)
  .map((c) => `        case ${fishQuote(c.path)}\n            printf '%s\\n' ${c.subcommands.map(fishQuote).join(' ')}`)
  .join('\n')}
    end
end
# The agents made with --agent: the directories of the agents dir in the default config dir.
function ${FN}_agents
${
  spec.configBase.xdg
    ? `    set -l base $XDG_CONFIG_HOME
    test -n "$base"; or set base $HOME/${spec.configBase.home}`
    : `    set -l base $HOME/${spec.configBase.home}`
}
    for d in $base/${AGENTS_BELOW}/*/
        basename $d
    end
end
# The command path typed so far ("config set") on the first line, then the arguments after it, one a line.
function ${FN}_parse
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l path
    set -l args
    set -l skip 0
    for t in $tokens
        if test $skip = 1
            set skip 0
            continue
        end
        switch $t
            case '--*=*'
                continue
            case ${valued.map(fishQuote).join(' ')}
                set skip 1
                continue
            case '-*'
                continue
        end
        if test (count $args) -eq 0; and contains -- $t (${FN}_subcommands "$path")
            set path (string join ' ' $path $t)
        else
            set -a args $t
        end
    end
    printf '%s\\n' "$path" $args
end
function ${FN}_args
    ${FN}_parse | tail -n +2
end
# True when the command path is $argv[1] and $argv[2] arguments follow it (-1: any number).
function ${FN}_at
    set -l parsed (${FN}_parse)
    test "$parsed[1]" = "$argv[1]"; or return 1
    test $argv[2] = -1; or test (math (count $parsed) - 1) -eq $argv[2]
end
complete -c ${name} -f
${describe.join('\n')}
${spec.global.map((o) => option(o)).join('\n')}
${spec.commands.flatMap((c) => c.options.map((o) => option(o, `${FN}_at ${fishQuote(c.path)} -1`))).join('\n')}
${spec.commands.flatMap((c) => c.args.flatMap((a, i) => argument(at(c.path, i), a))).join('\n')}
${others.map((other) => `complete -c ${other} -w ${name}`).join('\n')}
`;
}
