// In a post, the author's own stance is what counts: "everyone's long, I'm shorting" is bearish, and
// "oversold bounce. fade it." is a call to sell the bounce it describes. A stance is the author's when it
// is said in the first person ("I'm adding", "my bags"), as an imperative that opens its clause ("fade
// it", "hold your BTC"), or with no subject at all: posts drop the "I" ("buying more here", "averaging
// in on ETH", "bottom is in for BTC"); a call to buy ("time to buy") is the author's unless someone else
// is named as making it. A clause whose subject is someone else ("my cousin is buying more", "everyone
// is buying the dip") is theirs. What the text describes the other way then counts a quarter.

const FIRST_PERSON = /\b(?:i|i'm|im|i've|i'll|i'd|we|we're|we've|my|our)\b/gi;
// Someone else as the subject: a person of the author's ("my cousin", "my bearish friend"), a third person,
// a crowd. Matched before FIRST_PERSON at the same place, so the "my" of "my cousin" is not the author.
const OTHER_PERSON =
  /\b(?:(?:my|our|his|her|their)\s+(?:\w+\s+)?(?:friends?|uncles?|aunts?|dad|mom|mum|parents|wife|husband|gf|bf|girlfriend|boyfriend|boss|cowork\w*|colleagues?|brothers?|sisters?|neighbou?rs?|barber|cousins?|family|son|daughter|kids)|he|she|they|everyone|everybody|people|retail|newbies|noobs|normies|nobody|no one|someone|somebody|others)\b/gi;
// An imperative opens with its verb; "Bearish headlines all week" opens with an adjective.
const IMPERATIVE =
  /^(?:fade|sell|buy|short|long|hold|load|stack|get|take|dump|cut|close|add|ape|send|do not|don't|never|not selling|diamond hands|hodl)\b/i;
// A clause with its subject left out opens with the verb ("buying more", "bought the dip", "averaging
// in"), or the phrase carries its own subject ("bottom is in"). An adjective that opens a clause
// ("Bearish headlines") is no dropped "I".
const SUBJECT_LEFT_OUT = /^(?:\w+ing|\w+ed(?!\s+by\b)|bought|bottom is in)\b/i;
// A call to buy ("time to buy", "a buying opportunity") is the author's own unless the clause names who
// makes it: "the crash is a buying opportunity" argues for buying, whatever the crash word says.
const CALL = /^(?:(?:good |great |best |perfect |right )?times? to|buying opportunit|(?:an? )?opportunity to)/i;
// Who is reported to make the call, anywhere in its clause: "analysts say time to buy", "…, says JPMorgan".
const REPORTED_CALL = /\b(?:says?|said|according to|analysts?|strategists?|experts?|traders?|bank|ceo)\b/i;
// Words that may come before such a verb without being its subject: "just bought", "still buying".
const NO_SUBJECT = new Set(
  'just still now and so also already currently slowly quietly happily literally honestly officially finally again today lol ok okay yeah yep yes well welp tbh imo the then been'.split(
    ' ',
  ),
);
const BEFORE_WORDS = 5;

/** What the text describes against the author's own stance counts this much. */
export const AGAINST_THE_AUTHOR = 0.25;

/** In whose voice a stance is said, when it is the author's: a dropped "I" is the first person too. */
export type Voice = 'first person' | 'subject left out' | 'imperative' | 'call';

/**
 * Whether the stance phrase at [start, end) is the author's own, and in which voice: the first person
 * ("I'm adding"), the first person with the "I" left out ("buying more here"), or an imperative ("hold
 * your BTC"), which in a long comment is often a slogan. `other`: the subject someone else is, when the
 * clause names one.
 */
export function authorVoice(clause: string, start: number, end: number): { voice?: Voice; other?: string } {
  const before = clause.slice(0, start).trimEnd();
  const phrase = clause.slice(start, end);
  const near = `${before.split(/\s+/).slice(-BEFORE_WORDS).join(' ')} ${phrase}`;
  const other = lastMatch(OTHER_PERSON, near);
  const self = lastMatch(FIRST_PERSON, near);
  if (other && (!self || other.index >= self.index)) return { other: other[0] };
  if (self) return { voice: 'first person' };
  if (CALL.test(phrase)) {
    const reported = REPORTED_CALL.exec(clause);
    return reported ? { other: reported[0] } : { voice: 'call' };
  }
  const words = before.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  if (!words.every((w) => NO_SUBJECT.has(w))) return {};
  if (words.length === 0 && IMPERATIVE.test(phrase)) return { voice: 'imperative' };
  return SUBJECT_LEFT_OUT.test(clause.slice(start)) ? { voice: 'subject left out' } : {};
}

function lastMatch(pattern: RegExp, text: string): RegExpExecArray | undefined {
  let last: RegExpExecArray | undefined;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) last = m;
  return last;
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
