import { shellWord } from '../output/shell-word.js';

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
