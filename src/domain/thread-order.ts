/** Where a thread stands in the list: by its timestamp as an instant, then by its id as text (domain/cursor.ts says why). */
export interface ThreadKey {
  timestamp: string;
  id: string;
}

export function compareKey(a: ThreadKey, b: ThreadKey): number {
  const ta = Date.parse(a.timestamp);
  const tb = Date.parse(b.timestamp);
  if (ta !== tb) return ta < tb ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
