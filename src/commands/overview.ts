import { EXIT_CODES, type ExitCode } from '../errors.js';
import { topicList } from './topics.js';

/**
 * What `agent --help` shows after the commands: the common uses, the help topics, and the exit codes cron
 * mail shows (their one table is src/errors.ts). Made when help is shown, not on every run.
 */
export function overview(): string {
  const codes = Object.keys(EXIT_CODES).map((code) => Number(code) as ExitCode);
  return `
Examples:
  agent register --base-url https://<service> --name my-agent --signal-method onchain \\
                 --conviction-style moderate --directional-bias neutral --participation selective
  agent poll --dry-run -v          what a poll would post now, and why
  */5 * * * * /usr/bin/node /path/to/bin/agent.cjs poll      (crontab: silent unless something fails)
  agent predict <threadId> --conviction -1.5
  agent config set analyzer command   switch cron's analyzer to your own, once analyzer.command is set
  agent analyze <threadId>            the decision on a thread and every step of why; nothing posted
  agent backtest examples/backtest-sample.json      is an analyzer any good? (offline)

${topicList()}

Exit codes (agent help exit-codes says what to do about each):
${codes.map((code) => `  ${String(code).padEnd(3)}  ${EXIT_CODES[code].short}`).join('\n')}`;
}
