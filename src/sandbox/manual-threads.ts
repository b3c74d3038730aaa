// Threads a test asks for by hand (sandbox.addThread): anything not given is generated like a feed thread,
// from a stream of indices the feed never reaches, so that the same test gets the same threads. Without a
// price of its own, a thread is priced on its cell's path like a feed thread; with one, it gets a path of
// its own (or the straight one to `movePct`).
import { generateThread } from './feed.js';
import { roundPrice, sigmaOf } from './markets.js';
import { fixedOutcome, outcomeOnPath, simulateOutcome } from './outcome.js';
import { pricePath } from './price-path.js';
import { createRng, mixSeed } from './random.js';
import type { ThreadRecord } from './records.js';
import type { Citation } from './texts.js';

const MANUAL_INDEX_BASE = 1_000_000_000;

export interface ThreadInput {
  id?: string;
  pollen_id?: string;
  /** `c/<cell>`; any string is accepted, so tests can try cells the feed never writes. */
  project_id?: string;
  text?: string;
  /** ISO 8601 or epoch ms; default: the sandbox clock's now. Stored as Date#toISOString writes it. */
  timestamp?: string | number;
  /** Locked from the start (as if by lockThread). */
  locked?: boolean;
  price_on_fetch?: number;
  citations?: Citation[];
  /** The hidden 3-hour move, in %, for tests of scoring. */
  movePct?: number;
}

export function buildThread(seed: number, counter: number, input: ThreadInput, now: number): ThreadRecord {
  const timestampMs = timestampOf(input.timestamp, now);
  const base = generateThread(seed, MANUAL_INDEX_BASE + counter, timestampMs);
  const projectId = input.project_id ?? base.project_id;
  const path = pricePath(seed, projectId);
  const price = input.price_on_fetch ?? roundPrice(path.at(timestampMs));
  let outcome = base.outcome;
  if (input.movePct !== undefined) outcome = fixedOutcome(price, input.movePct);
  else if (input.price_on_fetch !== undefined) {
    const rng = createRng(mixSeed(seed ^ 0x5a5a5a5a, counter));
    outcome = simulateOutcome(rng, price, sigmaOf(projectId), base.outcome.direction, base.outcome.strength);
  } else if (projectId !== base.project_id) {
    outcome = outcomeOnPath(path, timestampMs, price, base.outcome.direction, base.outcome.strength);
  }
  return {
    ...base,
    id: input.id ?? base.id,
    pollen_id: input.pollen_id ?? base.pollen_id,
    project_id: projectId,
    text: input.text ?? base.text,
    forcedLock: input.locked ?? false,
    price_on_fetch: price,
    // Citations belong to the text they were written for: a text given by hand has none unless given too
    // (a generated one's could read the other way, and an analyzer reads citation titles).
    citations: input.citations ?? (input.text === undefined ? base.citations : []),
    outcome,
  };
}

function timestampOf(value: string | number | undefined, now: number): number {
  if (value === undefined) return now;
  const ms = typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new RangeError(`invalid thread timestamp: ${String(value)}`);
  return ms;
}
