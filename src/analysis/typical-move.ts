import type { Thread } from '../domain/thread.js';
import { sigmaOf } from './profile-numbers.js';

/**
 * How far a measured typical move may stray from the number written for the cell, either way. The measure
 * refines the written number; it does not replace it wholesale: a feed whose prices say bitcoin moves 40%
 * in three hours is broken, and a post's size must not follow it (the size cap is a multiple of this σ).
 */
export const MEASURED_WITHIN = 3;

/**
 * The typical 3-hour move σ that sizes a post on this thread's cell, in %: the one this agent measured from
 * its recorded prices when a run measured one (docs/record.md#the-record-was-it-right), held within 3× of the number written
 * for the cell; else that written number.
 */
export function typicalMovePct(thread: Pick<Thread, 'cell' | 'typicalMove'>): number {
  const written = sigmaOf(thread.cell);
  const measured = thread.typicalMove?.pct;
  if (measured === undefined || !Number.isFinite(measured) || measured <= 0) return written;
  const held = Math.min(written * MEASURED_WITHIN, Math.max(written / MEASURED_WITHIN, measured));
  return Math.round(held * 100) / 100;
}

/** How the trace says where σ came from: "σ 0.9%", or "typical 3h move 1.4%, measured from 212 prices". */
export function typicalMoveWords(thread: Pick<Thread, 'cell' | 'typicalMove'>): string {
  const measured = thread.typicalMove;
  const written = sigmaOf(thread.cell);
  if (!measured) return `σ ${written}%`;
  const used = typicalMovePct(thread);
  const words = `typical 3h move ${measured.pct}%, measured from ${measured.pairs} prices`;
  return used === measured.pct
    ? `${words} (written: ${written}%)`
    : `${words}, held to ${used}% (at most ${MEASURED_WITHIN}× the written ${written}% either way)`;
}
