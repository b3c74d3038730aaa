import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createProgram } from '../../../src/cli.js';
import { ENVIRONMENT, settingsTable } from '../../../src/commands/help/topic-text.js';
import { TOPICS } from '../../../src/commands/topics.js';
import { EXIT, EXIT_CODES } from '../../../src/errors.js';
import { SETTING_NAMES, SETTINGS } from '../../../src/settings/table.js';
import { cli } from '../../support/in-process.js';

// The help topics (`agent help exit-codes`, ...): each is printed, listed by `agent --help`, and true to
// what the program reads and exits with.

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-topics-'));
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

describe('agent help <topic>', () => {
  it.each(TOPICS.map((topic) => topic.name))('help %s prints the topic on stdout, within 100 columns', async (name) => {
    const result = await cli(['help', name], home);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.length).toBeGreaterThan(200);
    const wide = result.stdout.split('\n').filter((line) => line.length > 100 && !line.startsWith('  agent '));
    expect(wide).toEqual([]);
  });

  it('agent help and agent --help list every topic with its summary', async () => {
    for (const args of [['help'], ['--help']]) {
      const { stdout } = await cli(args, home);
      const topics = stdout.split('Help topics (agent help <topic>):\n')[1] ?? '';
      for (const topic of TOPICS)
        expect(topics).toMatch(new RegExp(`^ {2}${topic.name} +${escaped(topic.summary)}$`, 'm'));
    }
  });

  it('no topic has the name of a command, which it would hide', () => {
    const program = createProgram('0.0.0', () => async () => {});
    const commands = program.commands.flatMap((command) => [command.name(), ...command.aliases()]);
    expect(TOPICS.map((topic) => topic.name).filter((name) => commands.includes(name))).toEqual([]);
  });
});

describe('exit-codes', () => {
  it('has a row for every exit code, and --help lists each code once from it', async () => {
    expect(Object.keys(EXIT_CODES).map(Number).sort()).toEqual(Object.values(EXIT).sort());
    const { stdout } = await cli(['--help'], home);
    for (const [code, { short }] of Object.entries(EXIT_CODES))
      expect(stdout).toMatch(new RegExp(`^ {2}${code} +${escaped(short)}$`, 'm'));
    const topic = (await cli(['help', 'exit-codes'], home)).stdout;
    for (const { todo } of Object.values(EXIT_CODES)) expect(flat(topic)).toContain(flat(todo));
  });
});

describe('environment', () => {
  it('names every environment variable src/ reads', () => {
    const named = ENVIRONMENT.flatMap(([names]) => names.split(', '));
    const read = new Set<string>();
    for (const file of sources(path.resolve(import.meta.dirname, '../../../src')))
      for (const [, name] of fs.readFileSync(file, 'utf8').matchAll(/\benv(?:\.|\?\.|\[')([A-Za-z_][A-Za-z0-9_]*)\b/g))
        if (name && name !== 'js') read.add(name);
    // Set by the build for the bundle itself, never by a user.
    read.delete('AGENT_BUILD_VERSION');
    expect(read.size).toBeGreaterThan(10);
    expect([...read].filter((name) => !named.includes(name))).toEqual([]);
  });
});

describe('settings', () => {
  it('lists every setting with its default', () => {
    const { table } = settingsTable();
    expect(table.rows.map((row) => row[0])).toEqual(SETTING_NAMES.map((name) => `\`${name}\``));
    for (const name of SETTING_NAMES)
      expect(table.rows.find((row) => row[0] === `\`${name}\``)).toContain(SETTINGS[name].shownDefault);
  });
});

function* sources(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(file);
    else if (entry.name.endsWith('.ts')) yield file;
  }
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const flat = (text: string) => text.replace(/\s+/g, ' ');
