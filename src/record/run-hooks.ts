import type { Context } from '../context.js';
import { stateStore } from '../session.js';
import type { Thread, TypicalMove } from '../domain/thread.js';
import { PriceRecorder } from './recorder.js';
import { loadTypicalMoves } from './typical-move.js';

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

/**
 * `predict` records the one thread it read, like a poll's page, so that its post can be resolved too; the
 * poll's walk may be behind it, so it is marked ahead of the walk.
 */
export function recordThread(ctx: Context, thread: Thread): void {
  priceRecorder(ctx).page([thread], { ahead: true });
}

/**
 * After a run that recorded prices, the posts and skips those prices can now resolve get their outcome
 * (settle.ts, loaded only then). A failure is said and never fails the run: the next run tries again.
 */
export async function settleAfterRun(ctx: Context, prices: PriceRecorder | undefined): Promise<void> {
  if (!prices?.recorded) return;
  const { settleRecord } = await import('./settle.js');
  try {
    const written = settleRecord({
      dir: stateStore(ctx).dir,
      now: ctx.timing.now(),
      redact: (text) => ctx.output.redact(text),
    });
    if (written.length) ctx.output.detail(`agent: ${written.length} outcome(s) recorded (agent history shows them)`);
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    ctx.output.warn(`agent: could not resolve outcomes in ${stateStore(ctx).dir} (${why}); the next run tries again`);
  }
}

/**
 * Each cell's typical 3-hour move measured from the recorded prices (typical-move.ts): read by a run that
 * has an open thread to size a post on, never by one that meets none. Unreadable prices measure nothing.
 */
export function typicalMoves(ctx: Context): Map<string, TypicalMove> {
  try {
    return loadTypicalMoves(stateStore(ctx).dir, ctx.timing.now());
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    ctx.output.warn(`agent: the recorded prices could not be read (${why}); sizes use the written typical moves`);
    return new Map();
  }
}

/** The thread with its cell's measured typical move, when there is one. */
export function withTypicalMove(thread: Thread, moves: Map<string, TypicalMove> | undefined): Thread {
  const typicalMove = moves?.get(thread.cell);
  return typicalMove ? { ...thread, typicalMove } : thread;
}
