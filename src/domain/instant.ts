// ISO 8601 date-times as a service sends them: date, time to the second, an optional fraction, and `Z`
// or an offset (the forms zod's `z.iso.datetime({ offset: true })` accepts). Date.parse is no check: it
// reads "foo 1" as 2001-01-01 and rolls 2025-02-30 over into March. A literal and a few comparisons,
// not zod's datetime schema: the state's cursor is checked on every cron run, and building that schema
// costs about a millisecond.
const SHAPE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function isIsoInstant(value: string): boolean {
  const match = SHAPE.exec(value);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : DAYS[month - 1];
  const offsetOk = match[7] === undefined || (Number(match[7]) <= 23 && Number(match[8]) <= 59);
  return days !== undefined && day >= 1 && day <= days && hour <= 23 && minute <= 59 && second <= 59 && offsetOk;
}
