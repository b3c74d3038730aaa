import { check, type Diagnostics } from 'recheck';
import { describe, expect, it } from 'vitest';
import { clearedBefore, recheckVersion } from './cleared.js';
import { everyPattern, type Pattern, repeats, scanSources } from './patterns.js';

// No input makes a regular expression of the program backtrack super-linearly: every pattern the program
// compiles (patterns.ts finds them all) is either free of repetition or cleared by recheck, and one that is
// not fails here, named with its file.
//
// A pattern without `*`, `+` or `{n,m}` needs no checker: from each position of the input it can try only
// the paths its own alternatives and `?` allow, a number fixed by the pattern, so its cost grows linearly
// with the input. That is half of them; recheck (its native analyzer, a child process, hence the "process"
// project) takes the other half, two at a time, in about three minutes on a loaded 2-core machine; a
// pattern it cleared is remembered for the next run of this checkout (cleared.ts).
//
// The rule, by where the text comes from. Exponential: never. Polynomial: never outside src/analysis,
// whose readers take text of any length (error bodies, answers, files). Inside src/analysis it is allowed
// at any degree, because the analyzer reads at most READ_LIMIT characters of a thread (builtin.ts) and
// `npm run bench` measures the worst decision at that cap. recheck's automaton checker, exact and
// deterministic, decides the small patterns (38 of the 40 outside src/analysis today); its fuzzer decides
// the large alternations of the analyzer, and the degree it estimates varies with the machine's load (2 or
// 3 for the same pattern), so the rule does not lean on it.
const PARAMS = { randomSeed: 1, timeout: 60_000 } as const;
const CAPPED = /src\/analysis\//;

function verdict(pattern: Pattern, result: Diagnostics): string | undefined {
  const named = `${pattern.where}: /${pattern.source}/${pattern.flags}`;
  if (result.status === 'safe') return undefined;
  if (result.status === 'unknown') return `${named} could not be checked (${result.error.kind})`;
  const { complexity } = result;
  if (complexity.type === 'polynomial' && CAPPED.test(pattern.where)) return undefined;
  const cost = complexity.type === 'exponential' ? 'exponential' : `polynomial, degree ${complexity.degree}`;
  return `${named} backtracks ${cost}, e.g. on ${JSON.stringify(result.attack.pattern)}`;
}

describe('every regular expression of the program matches in linear time', () => {
  const scan = scanSources();

  it('compiles patterns only where this test can read them', () => {
    expect(scan.refused).toEqual([]);
    expect(scan.literals.length).toBeGreaterThan(100);
  });

  it('has none that backtracks super-linearly', { timeout: 900_000 }, async () => {
    const patterns = await everyPattern(scan);
    expect(patterns.length).toBeGreaterThan(scan.literals.length);
    const cleared = clearedBefore();
    const version = recheckVersion();
    const keyOf = (p: Pattern) => JSON.stringify([version, PARAMS, p.source, p.flags, CAPPED.test(p.where)]);
    const checked = patterns.filter((p) => repeats(p.source) && !cleared.has(keyOf(p)));
    const failures: string[] = [];
    // Two at a time: recheck's analyzer answers them in parallel, and the machine has two cores.
    for (let at = 0; at < checked.length; at += 2) {
      const pair = checked.slice(at, at + 2);
      const results = await Promise.all(pair.map((p) => check(p.source, p.flags, PARAMS)));
      pair.forEach((p, i) => {
        const failure = verdict(p, results[i] as Diagnostics);
        if (failure) failures.push(failure);
        else cleared.add(keyOf(p));
      });
    }
    cleared.save();
    expect(failures).toEqual([]);
  });

  it('checks every pattern that repeats anything', () => {
    for (const repeating of ['a*', 'a+b', 'x{2}', 'x{2,}', 'x{1,40}', '(?:ab)+?', '[a]+', '\\d*']) {
      expect(repeats(repeating), repeating).toBe(true);
    }
    for (const fixed of ['abc', 'a?b', 'colou?r|gray', '[*+]', '\\*\\+', '[{]1,2}', '\\{1,2\\}', '(?<!\\w)ab(?!c)']) {
      expect(repeats(fixed), fixed).toBe(false);
    }
  });
});
