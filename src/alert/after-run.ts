import type { Context } from '../context.js';
import { ALERT_KEYS, type Settings } from '../settings/keys.js';
import { readSettings } from '../settings/store.js';
import type { PollEnd } from './poll-alerts.js';

/**
 * Called where a poll run's summary is recorded. Without an alert route or a heartbeat configured it reads
 * config.json and does nothing more: the alert code is loaded only when one is. It never throws: an alert
 * that cannot be sent never fails the poll or changes its exit code.
 */
export async function alertAfterPoll(ctx: Context, end: PollEnd): Promise<void> {
  let settings: Settings;
  try {
    settings = readSettings(ctx.configDir);
  } catch {
    // A broken config.json is the analyzer's to report, when a thread needs it.
    return;
  }
  if (!ALERT_KEYS.some((key) => settings[key] !== undefined)) return;
  try {
    const alerts = await import('./poll-alerts.js');
    await alerts.alertAfterPoll(ctx, settings, end);
  } catch (error) {
    ctx.output.warn(
      `agent: alerts not sent: ${ctx.output.redact(error instanceof Error ? error.message : String(error))}`,
    );
  }
}
