/** What `agent --help` shows after the commands: the common uses, and the exit codes cron mail shows. */
export const OVERVIEW = `
Examples:
  agent register --base-url https://<service> --name my-agent --signal-method onchain \\
                 --conviction-style moderate --directional-bias neutral --participation selective
  agent poll --dry-run -v          what a poll would post now, and why
  */5 * * * * /usr/bin/node /path/to/bin/agent.cjs poll      (crontab: silent unless something fails)
  agent predict <threadId> --conviction -1.5
  agent config set analyzer command   switch cron's analyzer to your own, once analyzer.command is set
  agent analyze <threadId>            the decision on a thread and every step of why; nothing posted
  agent backtest examples/backtest-sample.json      is an analyzer any good? (offline)

Exit codes: 0 ok (also nothing new, a skip) · 1 unexpected · 2 usage or invalid input, nothing sent ·
3 not registered or key rejected · 4 thread locked · 5 temporary, try again later · 130 interrupted`;
