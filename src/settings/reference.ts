import { type Feature, SETTING_NAMES, type SettingName, settingSpec } from './table.js';

// The settings table read aloud: for the docs (a Markdown table), `agent help settings` (the rows), and
// `agent config set --help` (plain lines). Nothing here says anything the table does not.

const FOR: Record<Feature, string> = {
  analyzers: 'every analyzer',
  command: 'the command analyzer',
  llm: 'the llm analyzer',
  alerts: 'alerts',
};

export const SETTINGS_HEAD = ['setting', 'meaning', 'default', 'env var, for one run', 'for'] as const;

/** One row per setting, in the table's order; cells may hold `code` spans. */
export function settingsRows(): string[][] {
  return SETTING_NAMES.map((name) => {
    const spec = settingSpec(name);
    return [
      `\`${name}\``,
      spec.about,
      spec.shownDefault,
      spec.envVar ? `\`${spec.envVar.name}\`` : '',
      `${FOR[spec.feature]}${spec.required ? ' (needed)' : ''}`,
    ];
  });
}

/** The settings reference as a Markdown table, for the docs. */
export function settingsReference(): string {
  const line = (row: readonly string[]) => `| ${row.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
  return [line(SETTINGS_HEAD), `|${SETTINGS_HEAD.map(() => '---').join('|')}|`, ...settingsRows().map(line)].join('\n');
}

/** The settings as `agent config set --help` lists them: a name, then what it means, broken at `columns`. */
export function settingsHelp(columns = 100): string {
  const width = Math.max(...SETTING_NAMES.map((name) => name.length));
  const indent = ' '.repeat(2 + width + 2);
  return SETTING_NAMES.flatMap((name) => {
    const words = helpLine(name).split(' ');
    const lines: string[] = [];
    let line = `  ${name.padEnd(width)} `;
    for (const word of words) {
      if (line.length + 1 + word.length > columns && line.trim() !== name) {
        lines.push(line);
        line = indent.slice(0, -1);
      }
      line += ` ${word}`;
    }
    lines.push(line);
    return lines;
  }).join('\n');
}

function helpLine(name: SettingName): string {
  const spec = settingSpec(name);
  const extra = [
    spec.shownDefault === '(none)' ? '' : `default ${spec.shownDefault}`,
    spec.envVar ? `env ${spec.envVar.name}` : '',
  ].filter(Boolean);
  return `${spec.about.replaceAll('`', '')}${extra.length ? ` (${extra.join('; ')})` : ''}`;
}
