import type { Thread } from '../domain/thread.js';
import { sigmaOf } from './profile-numbers.js';

/**
 * The typical 3-hour move σ that sizes a post on this thread's cell, in %: the one this agent measured from
 * its recorded prices when a run measured one (README "The record"), else the number written for the cell.
 */
export function typicalMovePct(thread: Pick<Thread, 'cell' | 'typicalMove'>): number {
  return thread.typicalMove?.pct ?? sigmaOf(thread.cell);
}

/** How the trace says where σ came from: "σ 0.9%", or "typical 3h move 1.4%, measured from 212 prices". */
export function typicalMoveWords(thread: Pick<Thread, 'cell' | 'typicalMove'>): string {
  const measured = thread.typicalMove;
  if (!measured) return `σ ${sigmaOf(thread.cell)}%`;
  return `typical 3h move ${measured.pct}%, measured from ${measured.pairs} prices (written: ${sigmaOf(thread.cell)}%)`;
}
