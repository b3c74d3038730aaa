// The reference parts of the docs, made from the program: between `<!-- generated: <name> -->` and
// `<!-- end generated -->` a document holds what `sections` makes for that name, and nothing typed by
// hand. `npm run docs` rewrites them (main.ts); test/build/generated-docs.test.ts fails when one is stale.
import fs from 'node:fs';
import path from 'node:path';
import type { Command, Option } from 'commander';
import { createProgram } from '../../src/cli.js';
import { type Block, toMarkdown } from '../../src/commands/help/blocks.js';
import { exitCodeTable, TOPIC_TEXT } from '../../src/commands/help/topic-text.js';
import { TOPICS } from '../../src/commands/topics.js';

/**
 * Every section a document may include, by the name its marker gives. The settings and the doctor's checks
 * are in their topics (`topic settings`, `topic cron`), made by settingsTable() and doctorChecks().
 */
export function sections(): Map<string, () => string> {
  const program = createProgram('0.0.0', () => async () => {});
  const markdown = (...blocks: Block[]) => toMarkdown(blocks);
  return new Map<string, () => string>([
    ['commands', () => synopsis(program)],
    ['command-reference', () => reference(program)],
    ['exit-codes', () => markdown(exitCodeTable())],
    ...TOPICS.map(({ name }): [string, () => string] => [`topic ${name}`, () => markdown(...TOPIC_TEXT[name]())]),
  ]);
}

const BLOCK = /^(<!-- generated: ([^>]+?) -->\n)[\s\S]*?^(<!-- end generated -->)/gm;

/** `text` with each generated section made again; an unknown name is an error, naming the file. */
export function regenerate(file: string, text: string, made = sections()): string {
  return text.replace(BLOCK, (_, start: string, name: string, end: string) => {
    const make = made.get(name);
    if (!make) throw new Error(`${file}: no generated section is named "${name}" (scripts/docs/generate.ts)`);
    return `${start}${make()}\n${end}`;
  });
}

/** The documents of the repository at `root` that may hold generated sections. */
export function documents(root: string): string[] {
  const docs = fs
    .readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return ['README.md', 'CONTRIBUTING.md', ...docs].filter((file) => fs.existsSync(path.join(root, file)));
}

/** Each command as one would type it, every option in brackets. */
function synopsis(program: Command): string {
  const lines = commandsOf(program).map(({ command, name }) => {
    const aliases = command.aliases().map((alias) => `(alias: ${alias})`);
    const words = [`agent ${name}`, ...argumentsOf(command), ...command.options.map((o) => `[${flagsOf(o)}]`)];
    return wrapWords([...words, ...aliases], 110, ' '.repeat(`agent ${name.split(' ')[0]} `.length));
  });
  return ['```', ...lines, '```'].join('\n');
}

/** Each command: what it does, how it is typed, and each of its options. */
function reference(program: Command): string {
  const options = (list: readonly Option[]) =>
    toMarkdown([{ table: { head: ['option', 'what it does'], rows: list.map((o) => [`\`${o.flags}\``, about(o)]) } }]);
  const global = `Global options, before or after the command:\n\n${options(program.options)}`;
  const each = commandsOf(program).map(({ command, name }) => {
    const usage = `\`agent ${[name, ...argumentsOf(command)].join(' ')}${command.options.length ? ' [options]' : ''}\``;
    const aliases = command.aliases().length
      ? ` (alias: ${command
          .aliases()
          .map((a) => `\`${a}\``)
          .join(', ')})`
      : '';
    const parts = [`### agent ${name}`, `${usage}${aliases}: ${command.description()}`];
    if (command.options.length) parts.push(options(command.options));
    return parts.join('\n\n');
  });
  return [global, ...each].join('\n\n');
}

/** `--analyzer builtin|command|llm`: an option's choices in place of its value's name. */
function flagsOf(option: Option): string {
  return option.argChoices ? option.flags.replace(/<[^>]+>/, option.argChoices.join('|')) : option.flags;
}

function about(option: Option): string {
  const choices = option.argChoices ? `; one of ${option.argChoices.map((c) => `\`${c}\``).join(', ')}` : '';
  const fallback = option.defaultValue === undefined ? '' : `; default ${String(option.defaultValue)}`;
  return `${option.description}${choices}${fallback}`;
}

function commandsOf(program: Command): Array<{ command: Command; name: string }> {
  const out: Array<{ command: Command; name: string }> = [];
  const walk = (command: Command, names: string[]) => {
    for (const sub of command.commands) {
      const path = [...names, sub.name()];
      if (sub.commands.length === 0) out.push({ command: sub, name: path.join(' ') });
      walk(sub, path);
    }
  };
  walk(program, []);
  return out;
}

function argumentsOf(command: Command): string[] {
  return command.registeredArguments.map((a) => {
    const name = a.argChoices ? a.argChoices.join('|') : `${a.name()}${a.variadic ? '...' : ''}`;
    return a.required ? `<${name}>` : `[${name}]`;
  });
}

function wrapWords(words: string[], columns: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line && line.length + 1 + word.length > columns) {
      lines.push(line);
      line = indent + word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}
