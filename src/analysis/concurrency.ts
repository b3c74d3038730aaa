/**
 * Threads a command or model analyzer reads at once, in a poll and in a backtest alike: a local model
 * server queues more than this. The built-in analyzer is fast enough to read one at a time.
 */
export const ANALYSIS_CONCURRENCY = 4;
