// Most of the ~600 patterns cannot match most clauses, and a plain substring search says so far more
// cheaply than running them: each pattern is read once for the literal text that any match of it must
// contain ("withdraw" in "withdr[ae]w…", one of "stop"/"halt"/… and one of "plan"/"project"/… in
// "(?:stops?|halt…) … (?:plans?|project…)"), and is run only on a clause that contains it. Running
// fewer patterns is also what keeps memory down: V8 compiles each pattern it runs twice to machine
// code, ~4 KB apiece.
//
// The reading is deliberately small: it understands the syntax the lexicon uses (groups, lookarounds,
// alternation, classes, escapes, quantifiers) and, where unsure, requires nothing, which only means the
// pattern is always run. It must never require text that a match could lack.

/**
 * Sets of lower-case strings: every match contains at least one string of each set. The first set is
 * the most selective. Undefined: nothing is known, the pattern is always run.
 */
export type Needs = ReadonlyArray<readonly string[]> | undefined;

/** At most this many sets are kept: the first prunes most, the others catch what it lets through. */
const MAX_SETS = 3;

// The pattern is cut into tokens by one regex, run natively: the reader then walks a few thousand
// tokens rather than ~60,000 characters (it runs once, cold, as the first thread is read).
const TOKEN =
  /\\u[0-9a-f]{4}|\\x[0-9a-f]{2}|\\.|\[(?:\\.|[^\]\\])*\]|\(\?<?[=!]|\(\?:|\(\?<[a-z]\w*>|[()|]|(?:[?*+]|\{\d+(?:,\d*)?\})\??|[^\\[()|?*+{.^$]+|[\s\S]/g;

type Token = string;

interface Reader {
  tokens: Token[];
  at: number;
}

export function needsOf(source: string): Needs {
  // Lower-cased once: the lexicon's patterns are case-insensitive (and \S, \W, \D, \B read as \s, \w,
  // \d, \b, which this reading treats alike).
  const reader: Reader = { tokens: source.toLowerCase().match(TOKEN) ?? [], at: 0 };
  try {
    const needs = alternation(reader);
    return reader.at === reader.tokens.length ? needs : undefined;
  } catch {
    return undefined; // syntax this reader does not know: the pattern is simply always run
  }
}

/** Whether a lower-cased clause may contain a match. */
export function mayMatch(needs: Needs, lowerClause: string): boolean {
  return needs === undefined || needs.every((set) => set.some((text) => lowerClause.includes(text)));
}

// Of alternatives, only one has to match: each one's first set joins a single set for the whole.
function alternation(r: Reader): Needs {
  const branches: Needs[] = [sequence(r)];
  while (r.tokens[r.at] === '|') {
    r.at += 1;
    branches.push(sequence(r));
  }
  if (branches.length === 1) return branches[0];
  const union: string[] = [];
  for (const branch of branches) {
    if (branch === undefined) return undefined;
    union.push(...(branch[0] ?? []));
  }
  return [union];
}

interface Scored {
  set: readonly string[];
  score: number;
}

// In a sequence every item must match, so the needs of all of them hold: the most selective are kept.
function sequence(r: Reader): Needs {
  const sets: Scored[] = [];
  let run = '';
  const keep = (set: readonly string[]) => {
    const s = score(set);
    if (s > 0) sets.push({ set, score: s });
  };
  const endRun = () => {
    if (run !== '') keep([run]);
    run = '';
  };
  for (let token = r.tokens[r.at]; token !== undefined && token !== '|' && token !== ')'; token = r.tokens[r.at]) {
    r.at += 1;
    const item = itemOf(token, r);
    const min = minimum(r);
    if (item === ZERO_WIDTH) continue; // lookarounds and \b consume nothing: the run goes on
    if (typeof item === 'string') {
      if (min === 0) {
        // An optional last character: the rest is still known, the run ends before it.
        run += item.slice(0, -1);
        endRun();
      } else {
        run += item;
        if (min > 1) endRun(); // repeated: how often is unknown
      }
      continue;
    }
    endRun();
    if (min >= 1 && item !== undefined) for (const set of item) keep(set);
  }
  endRun();
  if (sets.length === 0) return undefined;
  return sets
    .sort((a, b) => b.score - a.score)
    .slice(0, MAX_SETS)
    .map((s) => s.set);
}

// Text that nearly every clause has ("the", " to ") selects nothing, however long it is.
const COMMON = new Set([
  'the',
  'to',
  'for',
  'with',
  'a',
  'an',
  'of',
  'in',
  'on',
  'at',
  'and',
  'or',
  'is',
  'its',
  'as',
  'by',
]);

function score(set: readonly string[]): number {
  let least = Infinity;
  for (const text of set) {
    const trimmed = text.trim();
    least = Math.min(least, COMMON.has(trimmed) ? 0 : trimmed.length);
  }
  return least * 100 - set.length;
}

const ZERO_WIDTH = Symbol('zero-width');

/** Literal text (a string), a group's or a class's needs (undefined: none), or nothing consumed. */
function itemOf(token: Token, r: Reader): string | Needs | typeof ZERO_WIDTH {
  const first = token[0] ?? '';
  if (first === '(') {
    const needs = alternation(r);
    if (r.tokens[r.at] !== ')') throw new Error('unbalanced group');
    r.at += 1;
    return token === '(?=' || token === '(?!' || token === '(?<=' || token === '(?<!' ? ZERO_WIDTH : needs;
  }
  if (first === '[' || first === '.') return undefined;
  if (first === '^' || first === '$') return ZERO_WIDTH;
  if (first === ')' || first === '|' || first === '?' || first === '*' || first === '+' || first === '{') {
    throw new Error(`unexpected ${token}`);
  }
  if (first !== '\\') return token;
  const escaped = token[1] ?? '';
  if (escaped === 'b') return ZERO_WIDTH;
  if (escaped === 'u' || escaped === 'x') return String.fromCharCode(parseInt(token.slice(2), 16)).toLowerCase();
  if (/[0-9a-z]/.test(escaped)) return undefined; // \s, \w, \d, \n, \1…: a class or not worth knowing
  return escaped;
}

/** How often the item just read must occur: 0, 1, or 2 for "at least once, how often unknown". */
function minimum(r: Reader): number {
  const token = r.tokens[r.at];
  if (token === undefined) return 1;
  const first = token[0];
  if (first === '?' || first === '*') {
    r.at += 1;
    return 0;
  }
  if (first === '+') {
    r.at += 1;
    return 2;
  }
  if (first === '{') {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(token);
    if (!m) return 1;
    r.at += 1;
    const min = Number(m[1]);
    return min === 0 ? 0 : min === 1 && m[2] === undefined ? 1 : 2;
  }
  return 1;
}
