import { UsageError } from '../errors.js';
import { isLoopbackHost } from '../http/origin.js';

/** The settings that hold a URL alerts are sent to. */
export type AlertUrlSetting = 'alert.webhook' | 'alert.heartbeat';

/**
 * Where an alert (`alert.webhook`) or a heartbeat (`alert.heartbeat`) goes: https, or plain http to a
 * loopback address only, as for the service itself (key-origin-only): the event names the agent and its
 * troubles, and such a URL is itself a secret (a chat's webhook grants posting to it), which plain http
 * would show to anyone on the way. No credentials (they would be sent on every request and shown in
 * errors) and no fragment; a query is kept, as some services put their token there.
 */
export function parseAlertUrl(raw: string, setting: AlertUrlSetting): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    // Not echoed: a webhook URL is a secret, and so may be whatever was pasted in its place.
    throw new UsageError(`${setting} is not a URL`, { hint: 'e.g. https://hooks.slack.com/services/…' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UsageError(`${setting} must be https, not ${url.protocol}`);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new UsageError(`${setting} must be https: plain http only to this machine (127.0.0.1, ::1, localhost)`, {
      hint: 'anyone on the way could read the URL, which grants posting, and the event',
    });
  }
  if (url.username || url.password || url.hash) {
    throw new UsageError(`${setting} must not contain credentials or a fragment`, {
      hint: 'a token belongs in the path or the query, as the service gives it',
    });
  }
  return url;
}

/** A URL as it may be shown: scheme and host, never the path or query that hold its secret. */
export function shownUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}/…`;
  } catch {
    return '(not a URL)';
  }
}
