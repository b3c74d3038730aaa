import type { Context } from '../context.js';
import { messageOf } from '../errors.js';
import { ALERT_SETTINGS } from '../settings/table.js';
import { readSettingsForEdit } from '../settings/settings-file.js';
import type { PollEnd } from './poll-alerts.js';

/**
 * Called where a poll run's summary is recorded. Without an alert route or a heartbeat configured it reads
 * config.json (as stored: no schema is built) and does nothing more: the alert code is loaded only when
 * one is. It never throws: an alert that cannot be sent never fails the poll or changes its exit code.
 */
export async function alertAfterPoll(ctx: Context, end: PollEnd): Promise<void> {
  let stored: Record<string, unknown>;
  try {
    stored = readSettingsForEdit(ctx.configDir);
  } catch {
    // A broken config.json is the analyzer's to report, when a thread needs it.
    return;
  }
  if (!ALERT_SETTINGS.some((key) => stored[key] !== undefined)) return;
  try {
    const alerts = await import('./poll-alerts.js');
    await alerts.sendPollAlerts(ctx, end);
  } catch (error) {
    ctx.output.warn(`agent: alerts not sent: ${ctx.output.redact(messageOf(error))}`);
  }
}
