// The shape of `agent stats`' record (`stats --json`'s "record", docs/cli.md); record-stats.ts defines each number.

export interface RecordMetrics {
  resolved: number;
  right: number;
  wrong: number;
  flat: number;
  hitRate: number | null;
  hitRateLow: number | null;
  hitRateHigh: number | null;
  mae: number | null;
  meanAbsMove: number | null;
}

export interface Call {
  threadId: string;
  cell: string;
  conviction: number;
  move: number;
  decidedAt: string;
}

export interface CalibrationRow {
  /** |conviction| from (inclusive), in %. */
  from: number;
  /** |conviction| up to (exclusive), in %; null: no upper end. */
  to: number | null;
  posts: number;
  meanPredicted: number;
  meanRealized: number;
}

export interface RecordStats extends RecordMetrics {
  /** Posts of the period still waiting for the price 3 hours on. */
  pending: number;
  /** Posts whose outcome can never be known (no price near 3 hours on). */
  unresolvable: number;
  byCell: Record<string, RecordMetrics>;
  byAnalyzer: Record<string, RecordMetrics>;
  calibration: CalibrationRow[];
  best: Call[];
  worst: Call[];
  skipped: { resolved: number; meanAbsMove: number | null };
}
