// The client's view of a thread once parsed: only what the client uses, in its own names.
export interface Citation {
  url?: string;
  title?: string;
}

export interface Thread {
  id: string;
  /** Cell name without the `c/` prefix, e.g. `bitcoin`. */
  cell: string;
  /** As the service wrote it, e.g. `c/bitcoin` (or `bitcoin`). */
  projectId: string;
  text: string;
  timestamp: string;
  locked: boolean;
  priceOnFetch?: number;
  citations: Citation[];
}

export function cellOf(projectId: string): string {
  return projectId.replace(/^c\//, '').trim().toLowerCase();
}
