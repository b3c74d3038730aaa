/** The shortest interval a person may ask for: a poll every 30 s is already 2,880 runs a day. */
export const MIN_WATCH_INTERVAL_S = 30;
