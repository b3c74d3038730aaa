import { describe, expect, it } from 'vitest';
import { settingsHelp, settingsReference } from '../../src/settings/reference.js';
import { SETTING_NAMES, SETTINGS } from '../../src/settings/table.js';

describe('the settings reference', () => {
  it('is a Markdown table with one row per setting: its name, default and env var', () => {
    const lines = settingsReference().split('\n');
    expect(lines[0]).toBe('| setting | meaning | default | env var, for one run | for |');
    expect(lines).toHaveLength(2 + SETTING_NAMES.length);
    SETTING_NAMES.forEach((name, i) => {
      const row = lines[2 + i] ?? '';
      expect(row.startsWith(`| \`${name}\` |`)).toBe(true);
      expect(row).toContain(SETTINGS[name].shownDefault);
    });
    expect(lines.find((line) => line.startsWith('| `llm.model`'))).toContain('`AGENT_LLM_MODEL`');
    expect(lines.find((line) => line.startsWith('| `analyzer.command`'))).toContain('the command analyzer (needed)');
  });

  it('lists every setting for config set --help, within 100 columns', () => {
    const text = settingsHelp();
    for (const name of SETTING_NAMES) expect(text).toMatch(new RegExp(`^  ${name.replace('.', '\\.')} `, 'm'));
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    expect(text).not.toContain('`');
  });
});
