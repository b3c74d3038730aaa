import { FORECASTS } from './lexicon-forecast.js';

// A move that already happened, told beside a forecast ("up 80% off the bottom, plenty of room to drop",
// "fell 80% and now can run big"), is the forecast's background: the text's point is where the price goes
// from here. So the move counts nothing and the forecast decides, if it can stand alone; where it cannot
// (it names nothing priced, it is asked), the text is skipped rather than read the past move's way.
// The forecast need not count itself: one negated or discounted still says the move is background.

/** What pastMovesAsBackground needs of a reading. */
interface Read {
  ruleId: string;
  cue: string;
  weight: number;
  matched: string;
  ignored?: string;
}

/** The readings, with every price move beside a forecast made background, and the trace's reason. */
export function pastMovesAsBackground<R extends Read>(readings: R[]): R[] {
  const forecast = readings.find((r) => FORECASTS.has(r.ruleId));
  if (forecast === undefined) return readings;
  const why = `is background: a past move beside a forecast ("${forecast.matched}")`;
  return readings.map((r) => (r.cue === 'price move' && r.weight !== 0 ? { ...r, weight: 0, ignored: why } : r));
}
