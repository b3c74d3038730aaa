import { settingsHelp } from '../../settings/reference.js';
import { SETTING_NAMES } from '../../settings/table.js';
import type { AddCommand } from '../wiring.js';

export const addConfigCommand: AddCommand = (program, action) => {
  const config = program
    .command('config')
    .description('the analyzer and alert settings in <config-dir>/config.json (mode 600): get, set, unset');
  config
    .command('get')
    .description('show every setting, or print one stored value')
    .argument('[setting]', `one of: ${SETTING_NAMES.join(', ')}`)
    .action(
      action(async (ctx, name: string | undefined) => {
        const { runConfigGet } = await import('./run.js');
        await runConfigGet(ctx, name);
      }),
    );
  config
    .command('set')
    .description('store a setting, checked first (e.g. agent config set analyzer llm)')
    .argument('<setting>')
    .argument('<value>')
    .addHelpText(
      'after',
      `
Settings:
${settingsHelp()}
  (http only to 127.0.0.1/localhost; the two alert URLs are secrets: shown as scheme and host only)

The analyzer is switched last: "analyzer command" needs analyzer.command set first, "analyzer llm"
llm.base-url and llm.model (a poll would fail without them, so the switch is refused until then).
`,
    )
    .action(
      action(async (ctx, name: string, value: string) => {
        const { runConfigSet } = await import('./run.js');
        await runConfigSet(ctx, name, value);
      }),
    );
  config
    .command('unset')
    .description('remove a setting: its default applies again')
    .argument('<setting>')
    .action(
      action(async (ctx, name: string) => {
        const { runConfigUnset } = await import('./run.js');
        await runConfigUnset(ctx, name);
      }),
    );
};
