import type { Context } from '../../context.js';
import { EXIT, type ExitCode } from '../../errors.js';
import { placed } from '../../output/command-hint.js';
import { oneLine } from '../../output/sanitize.js';
import { wrapLine } from '../../output/wrap.js';
import { DOCTOR_CHECKS } from '../doctor-checks.js';
import type { Check } from './check.js';
import { findings, isDoctorContext } from './findings.js';

/**
 * `agent doctor`: one line per thing a user would otherwise debug by hand, each with its fix (docs/cli.md),
 * from the checks in DOCTOR_CHECKS, in their order. Never prints the key.
 */
export async function runDoctor(ctx: Context): Promise<ExitCode> {
  if (!isDoctorContext(ctx)) throw new Error('bug: doctor needs the running program and a runner');
  const found = findings(ctx);
  const checks: Check[] = [];
  for (const { name, run } of DOCTOR_CHECKS) {
    const verdict = await run(found);
    // A fix quoting a command from an error (a 401, a corrupt state) acts on this agent, as typed.
    if (verdict) checks.push({ name, ...verdict, ...(verdict.fix ? { fix: placed(verdict.fix, ctx) } : {}) });
  }

  const width = Math.max(...checks.map((c) => c.name.length));
  const label = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' } as const;
  const lines = checks.map(
    (c) =>
      // Masked before the cut: a key cut in half would no longer be recognised (key-never-shown).
      `${label[c.status]}  ${c.name.padEnd(width)}  ${oneLine(ctx.output.redact(c.detail), 200)}${c.fix ? ` (fix: ${oneLine(ctx.output.redact(c.fix), 160)})` : ''}`,
  );
  // At a terminal, broken at spaces under the detail column rather than cut by its edge mid-word.
  const columns = ctx.output.columns;
  ctx.output.result(
    columns === undefined ? lines : lines.flatMap((line) => wrapLine(line, columns, 4 + 2 + width + 2)),
    { checks },
  );
  return checks.some((c) => c.status === 'fail') ? EXIT.unexpected : EXIT.ok;
}
