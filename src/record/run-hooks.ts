import { stateStore, type Context } from '../context.js';
import type { Thread } from '../domain/thread.js';
import { PriceRecorder } from './recorder.js';

// Where poll and predict meet the record: small, so that their own code only gains a line or two.

/** A recorder for a run that changes things; a dry run records nothing, as it changes nothing. */
export function priceRecorder(ctx: Context): PriceRecorder {
  return new PriceRecorder({
    dir: stateStore(ctx).dir,
    now: ctx.timing.now,
    redact: (text) => ctx.output.redact(text),
    warn: (message) => ctx.output.warn(message),
  });
}

/** `predict` records the one thread it read, like a poll's page, so that its post can be resolved too. */
export function recordThread(ctx: Context, thread: Thread): void {
  priceRecorder(ctx).page([thread]);
}
