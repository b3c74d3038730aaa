// In a post, the author's own stance is what counts: "everyone's long, I'm shorting" is bearish, and
// "oversold bounce. fade it." is a call to sell the bounce it describes. A stance is the author's when it
// is said in the first person ("I'm adding", "my bags") or as an imperative that opens its clause ("fade
// it", "hold your BTC"); what the text describes the other way then counts a quarter.

const FIRST_PERSON = /\b(?:i|i'm|im|i've|i'll|i'd|we|we're|we've|my|our)\b/i;
// An imperative opens with its verb; "Bearish headlines all week" opens with an adjective.
const IMPERATIVE =
  /^(?:fade|sell|buy|short|long|hold|load|stack|get|take|dump|cut|close|add|ape|send|do not|don't|never|not selling|diamond hands|hodl)\b/i;
const BEFORE_WORDS = 5;

/** What the text describes against the author's own stance counts this much. */
export const AGAINST_THE_AUTHOR = 0.25;

/**
 * Whether the stance phrase at [start, end) is the author's own, and in which voice: the first person
 * ("I'm adding") or an imperative ("hold your BTC"), which in a long comment is often a slogan.
 */
export function authorVoice(clause: string, start: number, end: number): 'first person' | 'imperative' | undefined {
  const before = clause.slice(0, start).trimEnd();
  const near = before.split(/\s+/).slice(-BEFORE_WORDS).join(' ');
  if (FIRST_PERSON.test(`${near} ${clause.slice(start, end)}`)) return 'first person';
  const opens = before === '' || /^[\p{P}\p{S}\s]*$/u.test(before);
  return opens && IMPERATIVE.test(clause.slice(start, end)) ? 'imperative' : undefined;
}

/** What preferAuthor needs of a reading. */
interface Stanced {
  weight: number;
  author?: boolean;
  notes: string[];
}

/** The readings, with those against the author's own stance discounted and the discount noted. */
export function preferAuthor<R extends Stanced>(readings: R[]): R[] {
  const own = readings.filter((r) => r.author && r.weight !== 0).reduce((sum, r) => sum + r.weight, 0);
  if (own === 0) return readings;
  return readings.map((r) => {
    if (r.author || r.weight === 0 || Math.sign(r.weight) === Math.sign(own)) return r;
    const weight = Math.round(r.weight * AGAINST_THE_AUTHOR * 1000) / 1000;
    return { ...r, weight, notes: [...r.notes, `×${AGAINST_THE_AUTHOR} the author's own stance is the other way`] };
  });
}
