import { expect } from 'vitest';
import { analyzeThread, builtinAnalyzer, type Decision } from '../../src/analysis/index.js';
import type { Participation, Profile } from '../../src/domain/profile.js';
import type { Thread } from '../../src/domain/thread.js';

export function thread(text: string, overrides: Partial<Thread> = {}): Thread {
  return {
    id: 't1',
    cell: 'bitcoin',
    projectId: 'c/bitcoin',
    text,
    timestamp: '2025-01-01T00:00:00Z',
    locked: false,
    citations: [],
    ...overrides,
  };
}

export function profile(overrides: Partial<Profile> = {}): Profile {
  return {
    signal_method: 'technical',
    conviction_style: 'moderate',
    directional_bias: 'neutral',
    participation: 'moderate',
    ...overrides,
  };
}

/** Code points, as a service written in Python counts them. */
export function codePoints(text: string): number {
  return [...text].length;
}

export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a text meets the service's 20-300 rule in both measures and is well formed. */
export function isPostable(text: string): boolean {
  return text.length <= 300 && codePoints(text) >= 20 && !LONE_SURROGATE.test(text);
}

/** The built-in analyzer's decision on a text, profile sentiment at the given participation, and its trace. */
export async function decide(text: string, participation: Participation = 'moderate') {
  const p = profile({ signal_method: 'sentiment', participation });
  return analyzeThread(builtinAnalyzer, thread(text, { timestamp: '2025-03-01T12:00:00Z' }), p);
}

export function direction(decision: Decision): 'up' | 'down' | 'skip' {
  if (decision.action === 'skip') return 'skip';
  return decision.conviction > 0 ? 'up' : 'down';
}

/**
 * Asserts how the built-in analyzer reads a text: its direction (with the trace as the message when it is
 * not) and the trace line that says why.
 */
export async function expectReading(
  text: string,
  want: 'up' | 'down' | 'skip',
  line: string,
  participation: Participation = 'moderate',
): Promise<void> {
  const { decision, trace } = await decide(text, participation);
  expect(direction(decision), trace.join('\n')).toBe(want);
  expect(trace.join('\n')).toContain(line);
}
