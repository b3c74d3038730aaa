import { describe, expect, it } from 'vitest';
import { deeperThan, parseBoundedJson } from '../../src/http/bounded-json.js';

describe('parseBoundedJson', () => {
  it.each([
    ['[[1]]', 2, false],
    ['[[[1]]]', 2, true],
    ['{"a":{"b":[]}}', 3, false],
    ['{"a":{"b":[{}]}}', 3, true],
    // brackets inside strings, escaped quotes included, are text, not nesting
    ['["[[[[", "\\"[[[[\\\\"]', 1, false],
    ['["\\\\", [[1]]]', 2, true],
    ['[]', 0, true],
    ['1', 0, false],
    ['{"a":null,"b":"{{{"}', 1, false],
  ])('%s at most %i deep: exceeds %s', (text, max, exceeds) => {
    expect(deeperThan(JSON.parse(text), max)).toBe(exceeds);
  });

  it('parses what is shallow enough, refuses what is deeper, and tells both from text that is not JSON', () => {
    expect(parseBoundedJson('{"a":[1,2]}')).toEqual({ ok: true, value: { a: [1, 2] } });
    expect(parseBoundedJson('['.repeat(20_000) + ']'.repeat(20_000))).toEqual({ ok: false, tooDeep: true });
    expect(parseBoundedJson(`${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`)).toEqual({ ok: false, tooDeep: true });
    expect(parseBoundedJson('{"a":')).toEqual({ ok: false, tooDeep: false });
  });
});
