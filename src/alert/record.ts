import type { HistoryEntry } from '../history/entry.js';
import type { AlertKind } from './event.js';
import type { RouteResult } from './routes.js';

/** The history's line for an alert sent (or a heartbeat that failed): what went out, what each route answered. */
export function alertRecord(now: number, event: AlertKind | 'heartbeat', routes: readonly RouteResult[]): HistoryEntry {
  const failed = routes.filter((route) => !route.ok);
  return {
    ts: new Date(now).toISOString(),
    kind: 'alert',
    alert: { event, routes: routes.map(({ route, ok, answer }) => ({ route, ok, answer })) },
    ...(failed.length ? { reason: failed.map(({ route, answer }) => `${route}: ${answer}`).join('; ') } : {}),
  };
}
