import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareKey, type Cursor, isAfter, maxKey, nextCursor } from '../../src/domain/cursor.js';

const key = (timestamp: string, id: string): Cursor => ({ timestamp, id });

describe('compareKey: instants, not spellings; ids break ties', () => {
  const cases: Array<[a: Cursor, b: Cursor, sign: number]> = [
    [key('2025-06-01T12:00:00Z', 'a'), key('2025-06-01T12:00:00.000Z', 'a'), 0],
    [key('2025-06-01T12:00:00Z', 'a'), key('2025-06-01T14:00:00+02:00', 'a'), 0],
    [key('2025-06-01T12:00:00.000+00:00', 'a'), key('2025-06-01T07:00:00-05:00', 'a'), 0],
    [key('2025-06-01T12:00:00Z', 'a'), key('2025-06-01T14:00:00+02:00', 'b'), -1],
    [key('2025-06-01T12:00:00Z', 'b'), key('2025-06-01T14:00:00+02:00', 'a'), 1],
    // Text order would say the opposite for these two.
    [key('2025-06-01T13:00:00+02:00', 'a'), key('2025-06-01T12:00:00Z', 'a'), -1],
    [key('2025-06-01T12:00:00.001Z', 'a'), key('2025-06-01T12:00:00Z', 'z'), 1],
    [key('2025-06-01T12:00:00Z', '10'), key('2025-06-01T12:00:00Z', '9'), -1],
  ];
  it.each(cases)('%j vs %j → %i', (a, b, sign) => {
    expect(Math.sign(compareKey(a, b)) || 0).toBe(sign);
    expect(Math.sign(compareKey(b, a)) || 0).toBe(-sign || 0);
  });

  it('maxKey takes the newest whatever the order of the list', () => {
    const keys = [
      key('2025-06-01T12:00:00Z', 'b'),
      key('2025-06-01T13:30:00+01:00', 'c'),
      key('2025-06-01T12:00:00Z', 'a'),
    ];
    expect(maxKey(keys)).toEqual(keys[1]);
    expect(maxKey([...keys].reverse())).toEqual(keys[1]);
    expect(maxKey([])).toBeUndefined();
  });

  it.each([
    [key('2025-06-01T12:00:00Z', 'a'), null, true],
    [key('2025-06-01T12:00:00Z', 'b'), key('2025-06-01T12:00:00.000Z', 'a'), true],
    [key('2025-06-01T12:00:00Z', 'a'), key('2025-06-01T14:00:00+02:00', 'a'), false],
    [key('2025-06-01T11:59:59Z', 'z'), key('2025-06-01T12:00:00Z', 'a'), false],
  ])('isAfter(%j, %j) → %s', (k, cursor, after) => {
    expect(isAfter(k, cursor)).toBe(after);
  });
});

describe('nextCursor: never backwards, never past a thread still due (no-thread-lost)', () => {
  const t = (minute: number, id = `t${minute}`) => key(`2025-06-01T12:${String(minute).padStart(2, '0')}:00Z`, id);
  const cases: Array<[what: string, current: Cursor | null, handled: Cursor[], due: Cursor[], next: Cursor | null]> = [
    ['nothing handled: stays', t(1), [], [], t(1)],
    ['nothing handled, no cursor: stays null', null, [], [], null],
    ['moves to the newest handled', t(1), [t(3), t(5), t(2)], [], t(5)],
    ['from null', null, [t(3), t(2)], [], t(3)],
    ['stops before the oldest due thread', t(1), [t(2), t(3), t(5), t(6)], [t(4), t(7)], t(3)],
    ['a due thread older than every handled one holds it', t(1), [t(3), t(5)], [t(2)], t(1)],
    ['everything due: stays', t(1), [], [t(2)], t(1)],
    ['never backwards', t(9), [t(3), t(5)], [], t(9)],
    [
      'never backwards, even to an equal instant spelled otherwise',
      key('2025-06-01T12:05:00Z', 't5'),
      [key('2025-06-01T14:05:00+02:00', 't5')],
      [],
      key('2025-06-01T12:05:00Z', 't5'),
    ],
    ['the same instant: the id decides', t(1), [t(3, 'b'), t(3, 'a')], [t(3, 'c')], t(3, 'b')],
    ['the same instant, due id between', t(1), [t(3, 'a'), t(3, 'c')], [t(3, 'b')], t(3, 'a')],
  ];
  it.each(cases)('%s', (_what, current, handled, due, next) => {
    expect(nextCursor(current, handled, due)).toEqual(next);
  });

  it('returns a plain {timestamp, id} even when handed whole threads', () => {
    const thread = { ...key('2025-06-01T12:00:00Z', 'a'), text: 'x', locked: false };
    expect(nextCursor(null, [thread], [])).toEqual({ timestamp: '2025-06-01T12:00:00Z', id: 'a' });
  });

  it('holds for any handled and due threads (property)', () => {
    const anyKey = fc.record({
      timestamp: fc.integer({ min: 0, max: 50 }).map((m) => new Date(Date.UTC(2025, 5, 1, 12, m)).toISOString()),
      id: fc.constantFrom('a', 'b', 'c', 'd'),
    });
    fc.assert(
      fc.property(
        fc.option(anyKey, { nil: null }),
        fc.array(anyKey, { maxLength: 8 }),
        fc.array(anyKey, { maxLength: 4 }),
        (current, all, due) => {
          const dueIds = new Set(due.map((k) => `${k.timestamp}/${k.id}`));
          const handled = all.filter((k) => !dueIds.has(`${k.timestamp}/${k.id}`));
          const next = nextCursor(current, handled, due);
          if (current) expect(compareKey(next!, current)).toBeGreaterThanOrEqual(0);
          for (const d of due)
            if (next && (!current || compareKey(next, current) > 0)) expect(compareKey(next, d)).toBeLessThan(0);
          if (next && (!current || compareKey(next, current) !== 0))
            expect(handled.some((h) => compareKey(h, next) === 0)).toBe(true);
        },
      ),
    );
  });
});
