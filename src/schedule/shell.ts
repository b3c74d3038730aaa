/**
 * One word for /bin/sh, whatever it holds: as it is when it is plainly safe, else in single quotes with
 * each inner quote closed, escaped and reopened.
 */
export function shellWord(text: string): string {
  return /^[\w./:=@+-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The command that runs one poll, as a shell would be given it. */
export interface PollCommand {
  /** Absolute path of the node binary running now. */
  node: string;
  /** Absolute path of this command's script (bin/agent.cjs of this install). */
  script: string;
  configDir: string;
}

export function pollCommandLine({ node, script, configDir }: PollCommand): string {
  return [node, script, '--config-dir', configDir, 'poll'].map(shellWord).join(' ');
}

/**
 * The words of a command line `shellWord` wrote (or one as plain): quotes and backslashes taken off. Not a
 * shell: no expansion, and an operator such as `>>` is a word like any other.
 */
export function shellWords(line: string): string[] {
  return (line.match(/(?:'[^']*'|\\.|[^\s'\\])+/g) ?? []).map((word) =>
    word.replace(
      /'([^']*)'|\\(.)/g,
      (_all, quoted: string | undefined, escaped: string | undefined) => quoted ?? escaped ?? '',
    ),
  );
}
