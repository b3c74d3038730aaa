// The client's view of a thread once parsed: only what the client uses, in its own names.
export interface Citation {
  url?: string;
  title?: string;
}

/** A cell's typical 3-hour move as this agent measured it from the prices it recorded (src/record). */
export interface TypicalMove {
  /** In %: σ of the cell's recorded 3-hour moves, from their median size (record/typical-move.ts). */
  pct: number;
  /** How many 3-hour pairs of prices it was measured from. */
  pairs: number;
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
  /** Set by a run that measured it (poll, predict); the written number is used otherwise. */
  typicalMove?: TypicalMove;
}

export function cellOf(projectId: string): string {
  return projectId.replace(/^c\//, '').trim().toLowerCase();
}
