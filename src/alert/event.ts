import { oneLine } from '../output/sanitize.js';

// One alert event (docs/alerts.md): the same object goes to every route, the command's stdin and the
// webhook's body alike. `text` is for a chat webhook to show as it is (Slack and Mattermost take
// `{"text": …}` and ignore the other fields).

export const ALERT_KINDS = ['failing', 'recovered', 'quiet', 'paused', 'test'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export interface AlertEvent {
  kind: AlertKind;
  /** The agent's name on the service, from the state; null when the state cannot be read. */
  agent: string | null;
  configDir: string;
  /** When the condition began (ISO 8601). */
  since: string;
  detail: string;
  hint: string | null;
  /** One line a person reads in a chat: the agent, what happened, since when, what to do. */
  text: string;
}

/** The event, its one-line text made from the rest. */
export function alertEvent(fields: Omit<AlertEvent, 'text'>): AlertEvent {
  const who = fields.agent === null ? `the agent in ${fields.configDir}` : `agent ${fields.agent}`;
  const hint = fields.hint === null ? '' : ` (${fields.hint})`;
  const what: Record<AlertKind, string> = {
    failing: `polls failing since ${fields.since}: ${fields.detail}${hint}`,
    recovered: `polls work again (failing since ${fields.since}): ${fields.detail}`,
    quiet: `nothing posted since ${fields.since}: ${fields.detail}${hint}`,
    paused: `the service asked for a pause: ${fields.detail}${hint}`,
    test: `test alert: ${fields.detail}`,
  };
  return { ...fields, text: oneLine(`${who}: ${what[fields.kind]}`, 600) };
}
