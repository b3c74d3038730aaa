import { findAgents } from '../../agents/find.js';
import { agentRow } from '../../agents/row.js';
import type { Context } from '../../context.js';
import { EXIT, type ExitCode } from '../../errors.js';
import { knownKeys, maskStrings } from '../../history/mask.js';
import { fitLines } from '../../output/wrap.js';
import { agentsTable } from './table.js';

/**
 * `agent list` (alias `agents`): every agent of this user and how it is doing, from its files alone (no
 * request). Exit 1 when any is failing, so that in a script it is a health check for the whole machine.
 */
export async function runList(ctx: Context): Promise<ExitCode> {
  const warn = (message: string) => ctx.output.warn(message);
  const now = ctx.timing.now();
  const agents = await findAgents(ctx, warn);
  // A service may name an agent with its key (or another agent's): every key found is masked in what is
  // shown, before the table cuts a column to its width (key-never-shown).
  for (const agent of agents) for (const key of knownKeys(agent.configDir)) ctx.output.addSecret(key);
  const rows = agents
    .map((agent) =>
      agentRow(agent, {
        now,
        isAlive: ctx.self?.isAlive ?? (() => false),
        self: ctx.pid,
        user: ctx.user,
        warn,
      }),
    )
    .map((row) => maskStrings(row, (text) => ctx.output.redact(text)));
  if (!rows.length) {
    ctx.output.result(
      'No agents yet. "agent register" registers one in the default config dir; "agent --agent <name> register" one more beside it.',
      { agents: [] },
    );
    return EXIT.ok;
  }
  const width = ctx.output.columns;
  const table = agentsTable(rows, { now, home: ctx.env.HOME, ...(width === undefined ? {} : { width }) });
  ctx.output.result(width === undefined ? table : fitLines(table, width), { agents: rows });
  const failing = rows.filter((row) => row.health.state === 'failing');
  // Said on stderr as well, whole: the table's last column may be cut by a narrow terminal, and a script sees why it got 1.
  for (const row of failing)
    ctx.output.warn(`agent: ${row.configDir} is failing: ${row.health.reason ?? 'see agent doctor'}`);
  return failing.length ? EXIT.unexpected : EXIT.ok;
}
