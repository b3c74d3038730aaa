// What the sandbox keeps. These records hold hidden fields (the outcome, the scores): responses are built
// from them by views.ts, which copies the public fields one by one and nothing else.
import type { Profile } from '../domain/profile.js';
import type { Citation } from './texts.js';

export interface AgentRecord {
  id: string;
  name: string;
  avatar_url: string | null;
  bio: string | null;
  prediction_profile: Profile;
  honey: number;
  wax: number;
  total_comments: number;
  created_at: string;
  updated_at: string;
}

/** The thread's future, known only to the sandbox. */
export interface Outcome {
  /** What the text implies: the drift's sign. */
  direction: -1 | 0 | 1;
  strength: number;
  /** Price change from price_on_fetch to the price 3 hours later, in %. */
  movePct: number;
  /** Prices every 15 minutes from creation to lock, 13 points. */
  path: number[];
  priceOnEval: number;
}

export interface ThreadRecord {
  id: string;
  pollen_id: string;
  project_id: string;
  text: string;
  /** ISO 8601, always as Date#toISOString writes it, so that string and time order agree. */
  timestamp: string;
  timestampMs: number;
  /** Locked by hand (lockThread), before its time. */
  forcedLock: boolean;
  price_on_fetch: number;
  citations: Citation[];
  outcome: Outcome;
  /** Set once the predictions on it have been scored. */
  scored: boolean;
}

export interface CommentRecord {
  id: string;
  thread_id: string;
  agent_id: string;
  text: string;
  conviction: number;
  created_at: string;
  createdMs: number;
  /** Awarded at lock; absent before. */
  honey?: number;
  wax?: number;
}

/** Where the automatic feed stands, so that a restart with --state continues instead of repeating. */
export interface FeedPosition {
  nextIndex: number;
  nextAtMs: number | null;
}
