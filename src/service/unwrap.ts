// The public service this interface comes from has answered both bare bodies and wrapped ones
// (`{threads, total}`, `{thread, comment_count}`, `{comment}`, `{data}`): accept either.

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function unwrapList(body: unknown, keys: string[]): unknown[] | undefined {
  if (Array.isArray(body)) return body;
  if (!isRecord(body)) return undefined;
  for (const key of [...keys, 'data', 'items', 'results']) {
    const inner = body[key];
    if (Array.isArray(inner)) return inner;
    if (isRecord(inner)) {
      const nested = unwrapList(inner, keys);
      if (nested) return nested;
    }
  }
  return undefined;
}

/** The object itself when it looks like one (has `mark`), else the first wrapper key that holds one. */
export function unwrapObject(body: unknown, keys: string[], mark = 'id'): unknown {
  if (!isRecord(body)) return body;
  if (mark in body) return body;
  for (const key of [...keys, 'data', 'result']) {
    const inner = body[key];
    if (isRecord(inner)) return unwrapObject(inner, keys, mark);
  }
  return body;
}
