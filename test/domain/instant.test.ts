import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { isIsoInstant } from '../../src/domain/instant.js';

const zodDatetime = z.iso.datetime({ offset: true });

describe('isIsoInstant', () => {
  it.each([
    '2025-01-01T00:00:00Z',
    '2025-06-30T23:59:59.5Z',
    '2025-01-01T12:00:00.123456789Z',
    '2025-01-01T12:00:00+01:00',
    '2025-01-01T12:00:00.250-05:30',
    '2024-02-29T00:00:00Z',
    '2000-02-29T00:00:00Z',
  ])('accepts %s, as zod does', (value) => {
    expect(isIsoInstant(value)).toBe(true);
    expect(zodDatetime.safeParse(value).success).toBe(true);
  });

  it.each([
    'foo 1', // Date.parse: 2001-01-01
    '1',
    '2025-02-30T00:00:00Z', // Date.parse: 2025-03-02
    '2023-02-29T00:00:00Z',
    '1900-02-29T00:00:00Z',
    '2025-13-01T00:00:00Z',
    '2025-00-10T00:00:00Z',
    '2025-01-00T00:00:00Z',
    '2025-01-01T24:00:00Z',
    '2025-01-01T00:60:00Z',
    '2025-01-01T00:00:60Z',
    '2025-01-01T00:00:00+24:00',
    '2025-01-01T00:00:00+01:60',
    '2025-01-01T00:00:00', // no zone: which instant depends on where it is read
    '2025-01-01',
    '2025-01-01 00:00:00Z',
    '2025-01-01T00:00Z',
    '2025-01-01T00:00:00+0100',
    '2025-01-01T00:00:00.Z',
    'Wed, 01 Jan 2025 00:00:00 GMT',
    ' 2025-01-01T00:00:00Z',
    '2025-01-01T00:00:00Z\n',
    '',
  ])('refuses %j, as zod does', (value) => {
    expect(isIsoInstant(value)).toBe(false);
    expect(zodDatetime.safeParse(value).success).toBe(false);
  });
});
