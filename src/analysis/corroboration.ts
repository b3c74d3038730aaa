import type { Weakness } from './anchors.js';
import { signed } from './text-clean.js';

// How strength and independent cues combine. Phrases that say one thing in other words ("slides",
// "plunges", "new low": a price move) are one cue, as strong as its strongest phrase, not their sum. The
// cues' weights add up and saturate (tanh). Then the strength asks for corroboration:
// - two or more independent cues agree: read at full strength;
// - one cue that stands alone (a phrase of several words, a move with its coin or size): at most ONE_CUE,
//   which posts at moderate and active but not at selective, which asks for more than one thing;
// - only weak cues (a move word without its coin, one topical word, a phrase in a question): at most
//   WEAK_ALONE, which posts at active only.
// A weak cue whose reason holds for the whole text (it names no coin, it asks a question) corroborates
// nothing: two phrases in one question are still one question.

/** The most one weak cue may weigh on its own: at or above active's threshold (0.10), below moderate's (0.25). */
export const WEAK_ALONE = 0.2;
/** The most one cue may weigh on its own: at or above moderate's threshold, below selective's (0.45). */
export const ONE_CUE = 0.44;
/** A cue this faint (a conceded phrase, say) corroborates nothing. */
export const MIN_CUE = 0.1;
/**
 * What a weak cue weighs against cues that stand alone and agree with each other: "costs surge; shares
 * tumble" is about the shares. As much as a conceded phrase.
 */
export const OUTWEIGHED = 0.25;

/** One phrase, as the analyzer weighed it. */
export interface Weighed {
  /** Phrases with the same cue say one thing. */
  cue: string;
  weight: number;
  /** Why it cannot carry a post alone; absent when it can. */
  weak?: Weakness;
  matched: string;
}

interface Cue {
  weight: number;
  /** The strongest phrase's weight: the cue is worth no more, however often it is said. */
  most: number;
  /** Absent when one of the cue's phrases stands alone. */
  weak?: Weakness;
  quote: string;
}

export interface Combined {
  /** The cues' weights added up. */
  sum: number;
  strength: number;
  /** What the corroboration decided, for the trace; absent when it changed nothing. */
  line?: string;
  /** Which weak cues counted less against cues that stand alone, for the trace. */
  outweighed?: string;
}

export function combine(weighed: readonly Weighed[]): Combined {
  const cues = new Map<string, Cue>();
  for (const w of weighed) {
    if (w.weight === 0) continue;
    // A rise and a fall are two things said, not one in other words.
    const key = `${w.cue}${Math.sign(w.weight)}`;
    const known = cues.get(key);
    if (known === undefined) {
      cues.set(key, { weight: w.weight, most: Math.abs(w.weight), quote: w.matched, ...weakness(w.weak) });
      continue;
    }
    known.weight += w.weight;
    known.most = Math.max(known.most, Math.abs(w.weight));
    if (w.weak === undefined) delete known.weak;
  }
  const capped = [...cues.values()].map((c) => ({
    ...c,
    weight: Math.sign(c.weight) * Math.min(Math.abs(c.weight), c.most),
  }));
  const { values, outweighed } = weakAgainstStanding(capped);
  const sum = round(values.reduce((total, c) => total + c.weight, 0));
  // tanh saturates: ten phrases approach, and never pass, certainty.
  const saturated = round(Math.tanh(sum));
  const sign = Math.sign(saturated);
  const also = outweighed === undefined ? {} : { outweighed };
  if (sign === 0) return { sum, strength: saturated, ...also };

  const agreeing = values.filter((c) => Math.sign(c.weight) === sign && Math.abs(c.weight) >= MIN_CUE);
  const independent = agreeing.filter((c) => c.weak === undefined || !c.weak.shared);
  const standing = agreeing.filter((c) => c.weak === undefined || (c.weak.aloneOnly && independent.length >= 2));
  if (independent.length >= 2 && standing.length >= 1) {
    return { sum, strength: saturated, line: `builtin: ${independent.length} independent cues agree`, ...also };
  }
  const [one] = standing;
  const [cap, why] =
    one !== undefined && standing.length === 1
      ? [ONE_CUE, `one cue alone ("${one.quote}")`]
      : independent.length >= 2
        ? [ONE_CUE, `${independent.length} weak cues agree`]
        : [WEAK_ALONE, `one weak cue alone (${describe(agreeing[0])})`];
  // A cue that only agrees (a move word in a comment's talk) posts at no level alone.
  const agreesOnly = agreeing.length > 0 && agreeing.every((c) => c.weak?.agreesOnly !== undefined);
  if (agreesOnly && independent.length < 2) {
    const line = `builtin: ${why}, ${agreeing[0]?.weak?.agreesOnly}: strength ${signed(saturated)} held at 0`;
    return { sum, strength: 0, line, ...also };
  }
  if (Math.abs(saturated) <= cap) return { sum, strength: saturated, ...also };
  const held = sign * cap;
  const line = `builtin: ${why}: strength ${signed(saturated)} held at ${signed(held)}`;
  return { sum, strength: held, line, ...also };
}

/** Weak cues against standing cues that all agree count OUTWEIGHED of their weight. */
function weakAgainstStanding<C extends Cue>(cues: C[]): { values: C[]; outweighed?: string } {
  const standing = new Set(cues.filter((c) => c.weak === undefined && c.weight !== 0).map((c) => Math.sign(c.weight)));
  if (standing.size !== 1) return { values: cues };
  const side = [...standing][0] ?? 0;
  const against = cues.filter((c) => c.weak !== undefined && Math.sign(c.weight) === -side);
  if (against.length === 0) return { values: cues };
  const quotes = against.map((c) => `"${c.quote}"`).join(', ');
  return {
    values: cues.map((c) => (against.includes(c) ? { ...c, weight: round(c.weight * OUTWEIGHED) } : c)),
    outweighed: `builtin: weak cue ${quotes} against a cue that stands alone: ×${OUTWEIGHED}`,
  };
}

function describe(cue: Cue | undefined): string {
  return cue === undefined ? 'no cue strong enough' : `"${cue.quote}": ${cue.weak?.why ?? 'weak'}`;
}

const weakness = (weak: Weakness | undefined): { weak?: Weakness } => (weak === undefined ? {} : { weak });

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
