import { oneLine } from '../output/sanitize.js';

/**
 * Whatever shape an error body has (JSON `{message}` as string or array, `{error}` as string or object,
 * plain text, an HTML page from a proxy), one sanitised line for the user, or '' when it says nothing.
 */
export function errorBodyText(body: string, contentType = ''): string {
  const trimmed = body.trim();
  if (!trimmed) return '';
  if (trimmed.startsWith('{') || trimmed.startsWith('[') || contentType.includes('json')) {
    try {
      const text = pick(JSON.parse(trimmed));
      if (text) return oneLine(text, 200);
    } catch {
      // not JSON after all: fall through to text
    }
  }
  if (/^<(!doctype|html|head|body|\?xml)/i.test(trimmed) || contentType.includes('html')) {
    const text = (titleOf(trimmed) ?? withoutTags(withoutElement(withoutElement(trimmed, 'script'), 'style')))
      .replace(/&nbsp;/g, ' ')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      // Last, so that `&amp;lt;` reads `&lt;` and is not decoded twice.
      .replace(/&amp;/g, '&');
    return oneLine(text, 200);
  }
  return oneLine(trimmed, 200);
}

function pick(value: unknown, depth = 0): string {
  if (depth > 3 || value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value))
    return value
      .map((item) => pick(item, depth + 1))
      .filter(Boolean)
      .join('; ');
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of ['message', 'error_description', 'detail', 'error', 'errors', 'msg']) {
      const text = pick(record[key], depth + 1);
      if (text) return text;
    }
  }
  return '';
}

// Scans with indexOf, not patterns: /<[^>]*>/ and its like try the rest of the page again from each "<"
// that is never closed, and an HTML page is the server's (or a proxy's) to make as long as it likes.

/** The text of the page's first <title> element, if it has one. */
function titleOf(html: string): string | undefined {
  const lower = html.toLowerCase();
  const open = lower.indexOf('<title');
  const start = open === -1 ? -1 : lower.indexOf('>', open);
  const end = start === -1 ? -1 : lower.indexOf('</title>', start);
  return end === -1 ? undefined : html.slice(start + 1, end);
}

/** The page without the named element and what it holds (scripts and styles are not text). */
function withoutElement(html: string, name: string): string {
  const lower = html.toLowerCase();
  let out = '';
  let at = 0;
  for (;;) {
    const open = lower.indexOf(`<${name}`, at);
    const close = open === -1 ? -1 : lower.indexOf(`</${name}>`, open);
    if (close === -1) return out + html.slice(at);
    out += `${html.slice(at, open)} `;
    at = close + name.length + 3;
  }
}

/** The page with each tag (`<` to the next `>`) made a space. */
function withoutTags(html: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const open = html.indexOf('<', at);
    const close = open === -1 ? -1 : html.indexOf('>', open);
    if (close === -1) return out + html.slice(at);
    out += `${html.slice(at, open)} `;
    at = close + 1;
  }
}
