import path from 'node:path';
import { shellWord } from './shell-word.js';

/** Which agent a command acts on: its config dir, and whether it was chosen (--config-dir, AGENT_CONFIG_DIR). */
export interface AgentPlace {
  configDir: string;
  configDirGiven?: boolean;
  /** Chosen with `--agent <name>`: named so, shorter than the path and the same dir. */
  agentName?: string;
}

/**
 * A command a message tells the user to run, as it can be pasted: with `--agent <name>` when the config dir
 * came from --agent, else with `--config-dir` (absolute, quoted for the shell) whenever it was chosen rather than the default, so that it acts on this
 * agent and not on the default one, from any directory and any shell. No place: the plain command.
 */
export function agentCommand(place: AgentPlace | undefined, args: string): string {
  // A name --agent accepted needs no quoting (domain/agent-name.ts).
  if (place?.agentName !== undefined) return `agent --agent ${place.agentName} ${args}`;
  if (!place?.configDirGiven) return `agent ${args}`;
  return `agent --config-dir ${shellWord(path.resolve(place.configDir))} ${args}`;
}

/**
 * A message's quoted commands (`"agent register --force"`, written where the agent is not known: the state
 * store, the HTTP client) made to act on this agent, as `agentCommand` would write them. One already
 * naming a config dir is kept.
 */
export function placed(text: string, place: AgentPlace | undefined): string {
  return text.replace(
    /"agent (?!--agent |--config-dir )([^"]*)"/g,
    (_all, args: string) => `"${agentCommand(place, args)}"`,
  );
}

/** What to do once registered: look, then schedule. */
export function nextAfterRegister(place: AgentPlace): string {
  return `Next: "${agentCommand(place, 'poll --dry-run')}" shows what it would post; "${agentCommand(place, 'schedule --install')}" then polls every 5 minutes from cron.`;
}
