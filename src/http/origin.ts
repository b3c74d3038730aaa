import { UsageError } from '../errors.js';
import { trimEndOf } from '../domain/trim-end.js';

/** Plain http is allowed only where nothing on the wire can be read by another host (key-origin-only). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * The service's origin, as the key will be bound to it: https anywhere, http only on loopback,
 * no credentials, query or fragment. A path prefix is kept (the service may live under one).
 */
export function parseBaseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UsageError(`not a URL: ${JSON.stringify(raw)}`, {
      hint: 'pass the service address, e.g. https://service.example',
    });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`the service address must be http(s), not ${url.protocol}`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new UsageError(`refusing plain http to ${url.host}: the API key would cross the network unencrypted`, {
      hint: 'use https (plain http is allowed only for a loopback address)',
    });
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new UsageError('the service address must not contain credentials, a query or a fragment');
  }
  url.pathname = trimEndOf(url.pathname, /\//);
  return url;
}

/** The canonical text stored with the key: origin plus path prefix, no trailing slash. */
export function baseUrlText(url: URL): string {
  return `${url.origin}${url.pathname === '/' ? '' : url.pathname}`;
}

/** One path segment, whatever the id looks like (`../x`, `//evil/x`, `%2F`): key-origin-only. */
export function pathSegment(value: string): string {
  // The URL standard reads `.` and `..` as "here" and "up" even when written `%2E` (url.spec.whatwg.org,
  // "single-dot / double-dot URL path segment"), and an empty id would address the list: none can be sent.
  const refuse = () =>
    new UsageError(`${JSON.stringify(value)} cannot be sent as an id: it is not one path segment`, {
      hint: 'nothing was sent',
    });
  if (value === '' || value === '.' || value === '..') throw refuse();
  let encoded: string;
  try {
    encoded = encodeURIComponent(value);
  } catch {
    throw refuse(); // a lone surrogate (JSON allows "\ud800") has no UTF-8 form
  }
  return /^\.+$/.test(encoded) ? encoded.replace(/\./g, '%2E') : encoded;
}
