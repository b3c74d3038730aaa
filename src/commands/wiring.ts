import { type Command, Option } from 'commander';
import type { Context } from '../context.js';
import { CONVICTION_STYLES, DIRECTIONAL_BIASES, PARTICIPATIONS, SIGNAL_METHODS } from '../domain/profile.js';
import type { ProfileFlags } from '../domain/inputs.js';
import { type ExitCode, UsageError } from '../errors.js';
import type { WritableLike } from '../output/output.js';

/**
 * Turns a command's work into a commander action: the context is built from the global options first,
 * and what the work returns becomes the exit code. cli.ts makes the one instance.
 */
export type Action = <A extends unknown[]>(
  work: (ctx: Context, ...args: A) => Promise<ExitCode> | Promise<void>,
) => (...args: A) => Promise<void>;

/** Adds one command (or a group of them) to the program. */
export type AddCommand = (program: Command, action: Action) => void;

/** The four profile flags; `changing`: for update, where each one is a new value. */
export function profileOptions(command: Command, changing = false): Command {
  return command
    .addOption(
      new Option('--signal-method <m>', `which evidence weighs more${changing ? ' (new value)' : ''}`).choices(
        SIGNAL_METHODS,
      ),
    )
    .addOption(new Option('--conviction-style <s>', 'how large the predicted moves are').choices(CONVICTION_STYLES))
    .addOption(
      new Option('--directional-bias <b>', 'a lean applied before the posting threshold').choices(DIRECTIONAL_BIASES),
    )
    .addOption(new Option('--participation <p>', 'how strong a signal must be to post').choices(PARTICIPATIONS));
}

/** The four profile flags as commander gives them (camelCase, unchecked). */
export interface ProfileOptions {
  signalMethod?: string;
  convictionStyle?: string;
  directionalBias?: string;
  participation?: string;
}

/** Commander's camelCase profile options as the profile's own field names. */
export function profileFlags(options: ProfileOptions): ProfileFlags {
  return {
    signal_method: options.signalMethod,
    conviction_style: options.convictionStyle,
    directional_bias: options.directionalBias,
    participation: options.participation,
  };
}

/** A usage error commander found, and the command (`agent config set`) whose help explains it. */
export interface UsageFound {
  text: string;
  command: string;
}

/**
 * Sends commander's help and version to our streams and keeps its usage errors, with the command they
 * belong to, instead of printing them: the caller reports them like any other error. Returns the last one
 * kept. `--version` with `--json` or `-v` prints nothing here: the caller writes the details instead.
 */
export function routeOutput(
  program: Command,
  out: { stdout: WritableLike; stderr: WritableLike; version: string; details: boolean },
): () => UsageFound | undefined {
  let usage: UsageFound | undefined;
  const wire = (command: Command, name: string): void => {
    command.configureOutput({
      writeOut: (text) => {
        if (!(out.details && text === `${out.version}\n`)) out.stdout.write(text);
      },
      writeErr: (text) => out.stderr.write(text),
      outputError: (text) => {
        usage = { text, command: name };
      },
    });
    for (const sub of command.commands) wire(sub, `${name} ${sub.name()}`);
  };
  wire(program, 'agent');
  return () => usage;
}

/** The usage error to report, pointing at the help of the command that was typed. */
export function usageError(found: UsageFound | undefined): UsageError {
  const message = found?.text.replace(/^error: /, '').trim() || 'a command is needed';
  return new UsageError(message, { hint: `run "${found?.command ?? 'agent'} --help" for usage` });
}
