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
}

export function combine(weighed: readonly Weighed[]): Combined {
  const cues = new Map<string, Cue>();
  for (const w of weighed) {
    if (w.weight === 0) continue;
    const known = cues.get(w.cue);
    if (known === undefined) {
      cues.set(w.cue, { weight: w.weight, most: Math.abs(w.weight), quote: w.matched, ...weakness(w.weak) });
      continue;
    }
    known.weight += w.weight;
    known.most = Math.max(known.most, Math.abs(w.weight));
    if (w.weak === undefined) delete known.weak;
  }
  const values = [...cues.values()].map((c) => ({
    ...c,
    weight: Math.sign(c.weight) * Math.min(Math.abs(c.weight), c.most),
  }));
  const sum = round(values.reduce((total, c) => total + c.weight, 0));
  // tanh saturates: ten phrases approach, and never pass, certainty.
  const saturated = round(Math.tanh(sum));
  const sign = Math.sign(saturated);
  if (sign === 0) return { sum, strength: saturated };

  const agreeing = values.filter((c) => Math.sign(c.weight) === sign && Math.abs(c.weight) >= MIN_CUE);
  const independent = agreeing.filter((c) => c.weak === undefined || !c.weak.shared);
  const standing = agreeing.filter((c) => c.weak === undefined);
  if (independent.length >= 2 && standing.length >= 1) {
    return { sum, strength: saturated, line: `builtin: ${independent.length} independent cues agree` };
  }
  const [one] = standing;
  const [cap, why] =
    one !== undefined && standing.length === 1
      ? [ONE_CUE, `one cue alone ("${one.quote}")`]
      : independent.length >= 2
        ? [ONE_CUE, `${independent.length} weak cues agree`]
        : [WEAK_ALONE, `one weak cue alone (${describe(agreeing[0])})`];
  if (Math.abs(saturated) <= cap) return { sum, strength: saturated };
  const held = sign * cap;
  return { sum, strength: held, line: `builtin: ${why}: strength ${signed(saturated)} held at ${signed(held)}` };
}

function describe(cue: Cue | undefined): string {
  return cue === undefined ? 'no cue strong enough' : `"${cue.quote}": ${cue.weak?.why ?? 'weak'}`;
}

const weakness = (weak: Weakness | undefined): { weak?: Weakness } => (weak === undefined ? {} : { weak });

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
