// The worst time the built-in analyzer takes to decide one thread of a generated hostile corpus: long runs
// of words before each frame or teaser cue, no final punctuation, runs of question marks, quotes, links and
// emoji, 300 to 100,000 characters. The analyzer reads at most READ_LIMIT characters of a thread, and none
// of its patterns backtracks exponentially (test/cost/regex-cost.test.ts), so this stays small at any
// length; what its polynomial ones cost at the cap is what this row measures (8-10 ms on a 2-core machine).
import fc from 'fast-check';
import { builtinAnalyzer, READ_LIMIT } from '../../src/analysis/builtin.js';
import type { Trace } from '../../src/analysis/types.js';
import type { Profile } from '../../src/domain/profile.js';
import type { Thread } from '../../src/domain/thread.js';

const TEXTS = 200;
const RUNS = 3;
const TARGET_MS = 10;

const CUES = [
  "here's what it means",
  "here's why",
  'what this means for',
  'what you need to know',
  'how the market works',
  'so-called',
  'movie about',
  'nothing says',
  ' - ',
  'split between',
  'remember when',
  'bitcoin drops 5%',
];
const piece = fc.oneof(
  fc.constantFrom(...CUES),
  fc.integer({ min: 2, max: 400 }).map((n) => 'miners keep sending coins to exchanges '.repeat(n)),
  fc.integer({ min: 1, max: 200 }).map((n) => '?'.repeat(n)),
  fc.integer({ min: 1, max: 200 }).map((n) => `"'\u201C\u201D `.repeat(n)),
  fc.integer({ min: 1, max: 200 }).map((n) => 'https://t.co/abc?x=1 '.repeat(n)),
  fc.integer({ min: 1, max: 200 }).map((n) => '\u{1F680}\u{1F643} '.repeat(n)),
  fc.integer({ min: 1, max: 500 }).map((n) => ' '.repeat(n)),
);
const hostileText = fc
  .tuple(fc.array(piece, { minLength: 1, maxLength: 12 }), fc.integer({ min: 300, max: 100_000 }))
  .map(([pieces, length]) => {
    const unit = pieces.join(' ');
    return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
  });

const PROFILE: Profile = {
  signal_method: 'sentiment',
  conviction_style: 'moderate',
  directional_bias: 'neutral',
  participation: 'active',
};

const threadOf = (text: string, i: number): Thread => ({
  id: `h${i}`,
  cell: 'bitcoin',
  projectId: 'c/bitcoin',
  text,
  timestamp: '2026-01-01T00:00:00Z',
  locked: false,
  citations: [{ title: text.slice(0, 2_000), url: 'https://example.com' }],
});

export async function analyzerCostRow(): Promise<{ what: string; value: string; target: string; ok: boolean }> {
  const texts = fc.sample(hostileText, { numRuns: TEXTS, seed: 29 });
  // The first decision compiles the lexicon: not a thread's cost.
  await builtinAnalyzer.analyze(threadOf('warm up', 0), PROFILE, []);
  let worst = 0;
  for (const [i, text] of texts.entries()) {
    let best = Number.POSITIVE_INFINITY;
    for (let run = 0; run < RUNS; run++) {
      const trace: Trace = [];
      const start = performance.now();
      await builtinAnalyzer.analyze(threadOf(text, i), PROFILE, trace);
      best = Math.min(best, performance.now() - start);
    }
    worst = Math.max(worst, best);
  }
  return {
    what: `builtin analyzer, worst decision of ${TEXTS} hostile threads (300-100,000 chars, cap ${READ_LIMIT})`,
    value: `${worst.toFixed(2)} ms`,
    target: `< ${TARGET_MS} ms`,
    ok: worst < TARGET_MS,
  };
}
