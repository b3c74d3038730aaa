import type { Profile } from '../domain/profile.js';
import type { Thread } from '../domain/thread.js';
import { combine, type Weighed } from './corroboration.js';
import { PROFILE_NUMBERS } from './profile-numbers.js';
import { readText, splitClauses, type Reading } from './read-text.js';
import { cleanInline, signed } from './text-clean.js';
import type { Analyzer, Evidence, Signal, Trace } from './types.js';

const TRACE_QUOTE_MAX = 60;

/**
 * The most characters of a thread the analyzer reads: its text first, then the citation titles. A post
 * is 300 characters and a headline less; news worth a prediction has said itself well within this. The
 * rest is not read, so that no thread, however long, costs more than this much text does.
 */
export const READ_LIMIT = 2_000;

/** The default analyzer: the crypto lexicon, offline and deterministic (no clock, randomness or network). */
export const builtinAnalyzer: Analyzer = {
  name: 'builtin',
  analyze: async (thread, profile, trace) => readSignal(thread, profile, trace),
};

export function readSignal(thread: Thread, profile: Profile, trace: Trace): Signal {
  const whole = [thread.text, ...citationTitles(thread)];
  const [text = '', ...titles] = withinReadLimit(whole);
  const total = whole.reduce((sum, t) => sum + t.length, 0);
  if (total > READ_LIMIT) trace.push(`builtin: reading the first ${READ_LIMIT} of the thread's ${total} characters`);
  trace.push(`builtin: reading ${splitClauses(text).length} clause(s) of text and ${titles.length} citation title(s)`);
  const context = { year: yearOf(thread.timestamp) };
  const readings = [text, ...titles].flatMap((t) => readText(t, context));
  const byLabel = new Map<string, number>();
  const weighed: Weighed[] = [];
  for (const reading of readings) {
    const weight = reading.weight * (reading.method === profile.signal_method ? PROFILE_NUMBERS.methodBoost : 1);
    trace.push(describe(reading, weight, profile));
    if (weight !== 0) byLabel.set(reading.label, (byLabel.get(reading.label) ?? 0) + weight);
    weighed.push({
      cue: reading.cue,
      weight,
      matched: reading.matched,
      ...(reading.weak ? { weak: reading.weak } : {}),
    });
  }

  const evidence: Evidence[] = [...byLabel]
    .map(([phrase, weight]) => ({ phrase, weight: Math.round(weight * 1000) / 1000 }))
    .filter((e) => e.weight !== 0)
    .sort((a, b) => Math.abs(b.weight) - Math.abs(a.weight) || byText(a.phrase, b.phrase));
  const { sum, strength, line, outweighed } = combine(weighed);
  trace.push(
    evidence.length > 0
      ? `builtin: ${evidence.length} piece(s) of evidence, sum ${signed(sum)} → strength ${signed(Math.round(Math.tanh(sum) * 1000) / 1000)}`
      : readings.length > 0
        ? `builtin: no evidence left: ${readings.length} phrase(s) found, none counts here`
        : 'builtin: no market phrase found',
  );
  if (outweighed !== undefined) trace.push(outweighed);
  if (line !== undefined) trace.push(line);
  return { kind: 'signal', strength, evidence };
}

/** The texts as far as READ_LIMIT characters in all, cut where a character ends; empty ones dropped. */
function withinReadLimit(texts: readonly string[]): string[] {
  let left = READ_LIMIT;
  const kept: string[] = [];
  for (const text of texts) {
    let end = Math.min(text.length, left);
    // Not between the two halves of an emoji or another character outside the basic plane.
    if (end < text.length && /[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end -= 1;
    if (end > 0 || kept.length === 0) kept.push(text.slice(0, end));
    left -= end;
  }
  return kept;
}

/** Titles add evidence only when they say something the text does not already say. */
function citationTitles(thread: Thread): string[] {
  const text = thread.text.toLowerCase();
  const seen = new Set<string>();
  const titles: string[] = [];
  for (const citation of thread.citations) {
    const title = citation.title?.trim() ?? '';
    const key = title.toLowerCase();
    if (title === '' || seen.has(key) || text.includes(key)) continue;
    seen.add(key);
    titles.push(title);
  }
  return titles;
}

/** The thread's year, from its ISO timestamp; undefined when the service sent something else. */
function yearOf(timestamp: string): number | undefined {
  const year = /^(\d{4})-/.exec(timestamp)?.[1];
  return year === undefined ? undefined : Number(year);
}

function describe(reading: Reading, weight: number, profile: Profile): string {
  const quote = Array.from(cleanInline(reading.matched)).slice(0, TRACE_QUOTE_MAX).join('');
  if (weight === 0) return `builtin: "${quote}" ${reading.ignored ?? 'is negated'}: ${reading.ruleId} ignored`;
  const notes: string[] = [...(reading.method ? [reading.method] : []), ...reading.notes];
  const weak = reading.weak?.why;
  if (weak !== undefined && !reading.notes.some((n) => n.includes(weak))) notes.push(`weak alone: ${weak}`);
  if (reading.amount !== undefined) notes.push(`×${reading.multiplier.toFixed(2)} for ${cleanInline(reading.amount)}`);
  if (reading.method === profile.signal_method) notes.push(`×${PROFILE_NUMBERS.methodBoost} own method`);
  return `builtin: "${quote}" → ${reading.label} ${signed(weight)} (${notes.join(', ')})`;
}

// Code-unit order, not locale order: the same input must sort the same way on every machine.
function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
