// The help topics (`agent help <topic>`): what a user looks up that is not one command. Their names are
// listed by `agent --help` and completed by `agent completion`; their text is in help/topic-text.ts, loaded
// only when one is asked for.

export const TOPICS = [
  { name: 'exit-codes', summary: 'what each exit code means, and what to do about it' },
  { name: 'environment', summary: 'the environment variables the program reads' },
  { name: 'settings', summary: 'the settings of `agent config`: analyzer and alerts' },
  { name: 'files', summary: 'what the config dir holds, and which files hold the key' },
  { name: 'cron', summary: 'polling every 5 minutes: cron, systemd or one resident process; what doctor checks' },
  { name: 'alerts', summary: 'hearing about trouble: routes, events, the heartbeat' },
  { name: 'record', summary: "the history, stats, and the record of each post's outcome" },
  { name: 'analyzer', summary: 'who decides: the built-in analyzer, your command, or a model; the profile' },
] as const;

export type TopicName = (typeof TOPICS)[number]['name'];

export const topicNames = (): string[] => TOPICS.map((topic) => topic.name);

/** The list `agent --help` ends with. */
export function topicList(): string {
  const width = Math.max(...TOPICS.map((topic) => topic.name.length));
  return `Help topics (agent help <topic>):\n${TOPICS.map((topic) => `  ${topic.name.padEnd(width)}  ${topic.summary}`).join('\n')}`;
}
