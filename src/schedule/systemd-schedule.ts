import fs from 'node:fs';
import path from 'node:path';
import type { Context, RunProgram } from '../context.js';
import { SetupError } from '../errors.js';
import { agentCommand } from '../output/command-hint.js';
import { oneLine } from '../output/sanitize.js';
import { refuseUncarriable } from './carriable.js';
import type { PollCommand } from './shell.js';
import { systemdUnits, timerInterval, unitName, userUnitDir } from './systemd.js';

/** `agent schedule --systemd`: prints, installs or removes this config dir's user service and timer. */
export async function scheduleSystemd(
  action: 'print' | 'install' | 'remove',
  command: PollCommand,
  given: { every: number | undefined },
  ctx: Context,
  run: RunProgram,
): Promise<void> {
  if (action !== 'remove') refuseUncarriable({ command }, 'systemd');
  const dir = userUnitDir(ctx.env);
  if (!dir) throw new SetupError('neither XDG_CONFIG_HOME nor HOME is set: there is no place for user units');
  const name = unitName(command.configDir);
  const files = { service: path.join(dir, `${name}.service`), timer: path.join(dir, `${name}.timer`) };
  const installed = readIfThere(files.timer);
  const interval = installed === undefined ? undefined : timerInterval(installed);
  // Not given, the interval is the installed timer's: showing or refreshing the units never changes it.
  const every = given.every ?? interval ?? 5;
  const units = systemdUnits(command, every);
  const entry = `# ${files.service}\n${units.service}\n# ${files.timer}\n${units.timer}`;
  if (action === 'print') {
    const flag = given.every === undefined ? '' : ` --every ${given.every}`;
    ctx.output.result(entry.trimEnd(), {
      kind: 'systemd',
      entry,
      installed: installed !== undefined,
      interval: interval ?? null,
    });
    ctx.output.progress(
      installed === undefined
        ? `agent: not installed; "${agentCommand(ctx, `schedule --systemd --install${flag}`)}" writes these two units and starts the timer`
        : installed === units.timer
          ? `agent: installed: ${name}.timer runs agent poll every ${every} minutes`
          : `agent: installed, ${name}.timer every ${interval ?? '?'} minutes; "${agentCommand(ctx, `schedule --systemd --install${flag}`)}" replaces it with these units`,
    );
    return;
  }
  const useCron = `use cron instead: ${agentCommand(ctx, 'schedule --install')}`;
  const systemctl = async (...args: string[]) => {
    const done = await run('systemctl', ['--user', ...args]);
    if (done.missing)
      throw new SetupError('there is no systemctl on this machine', {
        hint: useCron,
      });
    return done;
  };
  // Before anything is written: a machine without a user session manager would get units nobody runs.
  const probe = await systemctl('show-environment');
  if (probe.status !== 0) {
    throw new SetupError(
      `there is no user systemd here (systemctl --user: ${oneLine(probe.stderr, 160) || `exit ${probe.status}`})`,
      { hint: useCron },
    );
  }
  if (action === 'install') {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(files.service, units.service);
    fs.writeFileSync(files.timer, units.timer);
    await mustSucceed(systemctl('daemon-reload'), 'daemon-reload');
    await mustSucceed(systemctl('enable', '--now', `${name}.timer`), `enable --now ${name}.timer`);
    ctx.output.result(
      [
        `Scheduled with systemd: ${name}.timer runs agent poll every ${every} minutes.`,
        `Its output: journalctl --user -u ${name}`,
      ],
      { kind: 'systemd', entry, installed: true, interval: every },
    );
    return;
  }
  // Not enabled, or already gone: the files are what is left to remove.
  await systemctl('disable', '--now', `${name}.timer`);
  const existed = installed !== undefined || fs.existsSync(files.service);
  fs.rmSync(files.timer, { force: true });
  fs.rmSync(files.service, { force: true });
  await mustSucceed(systemctl('daemon-reload'), 'daemon-reload');
  ctx.output.result(
    existed ? `Removed ${name}.timer and ${name}.service.` : `No units for ${command.configDir}; nothing changed.`,
    { kind: 'systemd', entry, installed: false, interval: null },
  );
}

function readIfThere(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

async function mustSucceed(done: ReturnType<RunProgram>, what: string): Promise<void> {
  const { status, stderr } = await done;
  if (status !== 0)
    throw new SetupError(`systemctl --user ${what} failed: ${oneLine(stderr, 200) || `exit ${status}`}`);
}
