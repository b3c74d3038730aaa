import type { RunProgram } from '../context.js';
import { SetupError } from '../errors.js';
import { oneLine } from '../output/sanitize.js';

const NO_CRONTAB = new SetupError('there is no crontab program on this machine', {
  hint: 'install cron (Debian, Ubuntu: sudo apt-get install cron), or use --systemd',
});

/** The user's crontab as `crontab -l` lists it; "" when they have none. `required`: no crontab program is an error, not "none". */
export async function readCrontab(run: RunProgram, required: boolean): Promise<string | undefined> {
  const listed = await run('crontab', ['-l']);
  if (listed.missing) {
    if (required) throw NO_CRONTAB;
    return undefined;
  }
  if (listed.status === 0) return listed.stdout;
  if (/no crontab for/i.test(listed.stderr)) return '';
  throw new SetupError(`crontab -l failed: ${oneLine(listed.stderr, 200) || `exit ${listed.status}`}`);
}

export async function writeCrontab(run: RunProgram, text: string): Promise<void> {
  const written = await run('crontab', ['-'], text);
  if (written.missing) throw NO_CRONTAB;
  if (written.status !== 0)
    throw new SetupError(`crontab refused the new table: ${oneLine(written.stderr, 200) || `exit ${written.status}`}`);
}
