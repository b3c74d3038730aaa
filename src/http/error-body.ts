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
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(trimmed)?.[1];
    const text = (title ?? trimmed.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' '))
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
