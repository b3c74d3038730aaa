import type { AddCommand } from '../wiring.js';

export const addConfigCommand: AddCommand = (program, action) => {
  const config = program
    .command('config')
    .description('the analyzer and alert settings in <config-dir>/config.json (mode 600): get, set, unset');
  config
    .command('get')
    .description('show every setting, or print one stored value')
    .argument(
      '[key]',
      'one of: analyzer, analyzer.command, analyzer.timeout, analyzer.fallback, llm.base-url, llm.model, llm.key-file, alert.command, alert.webhook, alert.heartbeat',
    )
    .action(
      action(async (ctx, key: string | undefined) => {
        const { runConfigGet } = await import('./run.js');
        await runConfigGet(ctx, key);
      }),
    );
  config
    .command('set')
    .description('store a setting, checked first (e.g. agent config set analyzer llm)')
    .argument('<key>')
    .argument('<value>')
    .addHelpText(
      'after',
      `
Keys:
  analyzer           builtin | command | llm                     (env AGENT_ANALYZER)
  analyzer.command   your analyzer's command line, no shell      (env AGENT_ANALYZER_COMMAND)
  analyzer.timeout   seconds per thread, 0.1-120 (default 10 for a command, 60 for a model)
  analyzer.fallback  builtin | none: who decides when your analyzer fails (default none)
  llm.base-url       an OpenAI-compatible API, e.g. http://127.0.0.1:11434/v1   (env AGENT_LLM_BASE_URL)
  llm.model          the model's name on that server             (env AGENT_LLM_MODEL)
  llm.key-file       a file (mode 600) holding the model's key   (or env AGENT_LLM_API_KEY)
  alert.command      a program (absolute path, no shell) given each alert as one JSON line on stdin
  alert.webhook      an https URL that gets each alert as one JSON POST (Slack, Mattermost: as is)
  alert.heartbeat    an https URL that gets one GET after each good poll (a dead-man's switch)
  (http only to 127.0.0.1/localhost; the two URLs are secrets: shown as scheme and host only)

The analyzer is switched last: "analyzer command" needs analyzer.command set first, "analyzer llm"
llm.base-url and llm.model (a poll would fail without them, so the switch is refused until then).
`,
    )
    .action(
      action(async (ctx, key: string, value: string) => {
        const { runConfigSet } = await import('./run.js');
        await runConfigSet(ctx, key, value);
      }),
    );
  config
    .command('unset')
    .description('remove a setting: its default applies again')
    .argument('<key>')
    .action(
      action(async (ctx, key: string) => {
        const { runConfigUnset } = await import('./run.js');
        await runConfigUnset(ctx, key);
      }),
    );
};
