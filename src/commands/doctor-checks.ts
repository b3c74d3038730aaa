import { alertCheck } from './doctor/alert-check.js';
import { analyzerCheck } from './doctor/analyzer-check.js';
import { asideCheck } from './doctor/aside-check.js';
import type { Verdict } from './doctor/check.js';
import type { Findings } from './doctor/findings.js';
import { lockCheck, nodeCheck, pauseCheck } from './doctor/local-checks.js';
import { lastPollCheck } from './doctor/schedule-check.js';
import { clockCheck } from './doctor/service-check.js';
import { holdsState, storedPause } from './doctor/state-check.js';

export interface DoctorCheck {
  /** The name its line is shown under (and `--json` gives). */
  name: string;
  /** What it looks at, in one line: `agent help cron` and the docs list it. */
  looksAt: string;
  /** What it finds; undefined when it has nothing to say here (no watcher runs, say). Never throws. */
  run: (found: Findings) => Verdict | undefined | Promise<Verdict | undefined>;
}

/**
 * The checks of `agent doctor`, in the order its lines are read: the one list the command runs, `agent
 * help cron` and the docs show, and the tests expect. Between them, they send at most one request to the
 * service (GET /agent/me) and one to a model server.
 */
export const DOCTOR_CHECKS: readonly DoctorCheck[] = [
  {
    name: 'node',
    looksAt: 'the Node version (20.19 or later)',
    run: ({ ctx }) => nodeCheck(ctx.self.version),
  },
  {
    name: 'state',
    looksAt: 'the state file: present, private (mode 600 in a 700 dir), owned by this user, readable',
    run: (found) => found.state().verdict,
  },
  {
    name: 'service',
    looksAt: 'one `GET /agent/me`: the address answers and accepts the key; not sent during a stored rate-limit pause',
    run: async (found) => (await found.service()).verdict,
  },
  {
    name: 'clock',
    looksAt: "this machine's clock against the service's `Date` header (a warning beyond 60 s)",
    run: async (found) => clockCheck(await found.service()),
  },
  {
    name: 'rate limit',
    looksAt: 'a pause the service asked for, still pending',
    // Read again: a 429 met by the service check was stored in the state, as by any command.
    run: ({ ctx, state }) => pauseCheck(state().state ? storedPause(ctx) : undefined, ctx.timing.now()),
  },
  {
    name: 'lock',
    looksAt: 'a lock left by a run that is gone',
    run: ({ ctx, configDir }) => lockCheck(configDir, ctx.self.isAlive),
  },
  {
    name: 'schedule',
    looksAt:
      "the crontab entry for this config dir (its node and script exist, a cron daemon runs), or this dir's systemd timer (active), or a watcher that polls",
    run: async (found) => (await found.schedule()).verdict,
  },
  {
    name: 'watcher',
    looksAt:
      'a `poll --watch` on this config dir, when one runs: its latest cycle, the next, and when it would be overdue (overdue fails)',
    run: (found) => found.watcher(),
  },
  {
    name: 'set aside',
    looksAt: 'an agent a live `poll --watch --all` has set aside and polls no more (fails, with the error)',
    run: ({ ctx, configDir }) => asideCheck(configDir, ctx.self.isAlive),
  },
  {
    name: 'last poll',
    looksAt: 'how the last poll ended (a failure fails), and whether the next is late for the installed interval',
    run: async ({ ctx, configDir, now, schedule }) =>
      lastPollCheck(configDir, now, (await schedule()).every, ctx, { registered: holdsState(configDir) }),
  },
  {
    name: 'analyzer',
    looksAt:
      'the built-in one; a command whose program and files are there as cron runs it, and that no other user could swap; a model server that answers `GET <base>/models`',
    run: ({ ctx }) => analyzerCheck(ctx),
  },
  {
    name: 'alerts',
    looksAt: 'the routes set, and the last alert sent with what each route answered (nothing is sent)',
    run: ({ ctx, configDir, settings }) => alertCheck(settings(), configDir, ctx.env.HOME ?? '/', ctx),
  },
];
