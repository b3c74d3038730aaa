import { FORECASTS } from './lexicon-forecast.js';

// A move that already happened, told beside a forecast ("up 80% off the bottom, plenty of room to drop",
// "fell 80% and now can run big"), is the forecast's background: the text's point is where the price goes
// from here. So the move counts nothing and the forecast decides, if it can stand alone; where it cannot
// (it names nothing priced, it is asked), the text is skipped rather than read the past move's way.
// The forecast need not count itself: one negated or discounted still says the move is background.
// A forecast someone is reported to make ("BTC surged past $100K; Schiff says it is headed for a crash")
// is that person's view, not the text's: it counts nothing, and the move is the news.
const REPORTED =
  /\b(?:says?|said|saying|according to|predicts?|predicted|warns?|warned|expects?|expected|analysts?|strategists?|economists?|experts?)\b/i;

/** What pastMovesAsBackground needs of a reading. */
interface Read {
  ruleId: string;
  cue: string;
  weight: number;
  matched: string;
  ignored?: string;
}

/** The readings, with every price move beside a forecast made background, and the trace's reason. */
export function pastMovesAsBackground<R extends Read>(readings: R[], text: string): R[] {
  const forecast = readings.find((r) => FORECASTS.has(r.ruleId));
  if (forecast === undefined) return readings;
  const reported = REPORTED.exec(text);
  if (reported) {
    const theirs = `is someone else's forecast ("${reported[0]}"), not the text's`;
    return readings.map((r) => (FORECASTS.has(r.ruleId) && r.weight !== 0 ? { ...r, weight: 0, ignored: theirs } : r));
  }
  const why = `is background: a past move beside a forecast ("${forecast.matched}")`;
  return readings.map((r) => (r.cue === 'price move' && r.weight !== 0 ? { ...r, weight: 0, ignored: why } : r));
}
