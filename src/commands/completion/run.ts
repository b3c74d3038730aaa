import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { completionScript } from './script.js';
import type { SHELLS } from './spec.js';

/** `agent completion <shell>`: the script, made from `program`'s own commands and options. */
export async function runCompletion(ctx: Context, shell: (typeof SHELLS)[number], program: Command): Promise<void> {
  const script = completionScript(shell, program, process.platform);
  ctx.output.result(script.trimEnd(), { shell, script });
}
