import path from 'node:path';
import type { Context, RunProgram } from '../../context.js';
import type { Settings } from '../../settings/table.js';
import { readSettings } from '../../settings/settings-file.js';
import type { Verdict } from './check.js';
import { watchCheck } from './local-checks.js';
import { findSchedule, type ScheduleFound } from './schedule-check.js';
import { askService, type ServiceFound } from './service-check.js';
import { findState, type StateFound } from './state-check.js';

/** The context doctor runs in: it looks at the running program itself, and runs crontab and systemctl. */
export type DoctorContext = Context & { self: NonNullable<Context['self']>; runProgram: RunProgram };

/**
 * What more than one check reads, found once a run and only when a check first asks: the state, the
 * service's answer, the watcher, the schedule and the settings. The clock's `now` is taken at the start.
 */
export interface Findings {
  ctx: DoctorContext;
  configDir: string;
  now: number;
  state: () => StateFound;
  service: () => Promise<ServiceFound>;
  watcher: () => Verdict | undefined;
  schedule: () => Promise<ScheduleFound>;
  /** The settings, or none when they cannot be read (the analyzer check says why). */
  settings: () => Settings | undefined;
}

export function isDoctorContext(ctx: Context): ctx is DoctorContext {
  return ctx.self !== undefined && ctx.runProgram !== undefined;
}

export function findings(ctx: DoctorContext): Findings {
  const now = ctx.timing.now();
  const configDir = path.resolve(ctx.configDir);
  const state = once(() => findState(ctx));
  const watcher = once(() => watchCheck(configDir, { isAlive: ctx.self.isAlive, self: ctx.pid, now }));
  return {
    ctx,
    configDir,
    now,
    state,
    service: once(() => askService(ctx, state().state, now)),
    watcher,
    schedule: once(() =>
      findSchedule(configDir, ctx.runProgram, {
        configHome: ctx.env.XDG_CONFIG_HOME || (ctx.env.HOME ? path.join(ctx.env.HOME, '.config') : undefined),
        watching: watcher()?.status === 'ok',
        proc: ctx.proc ?? '/proc',
        place: ctx,
      }),
    ),
    settings: once(() => {
      try {
        return readSettings(ctx.configDir);
      } catch {
        return undefined;
      }
    }),
  };
}

function once<T>(find: () => T): () => T {
  let found: { value: T } | undefined;
  return () => {
    found ??= { value: find() };
    return found.value;
  };
}
