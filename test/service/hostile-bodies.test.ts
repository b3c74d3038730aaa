import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isIsoInstant } from '../../src/domain/instant.js';
import { ResponseError } from '../../src/errors.js';
import type { HttpClient } from '../../src/http/client.js';
import { createServiceApi, type ThreadPage } from '../../src/service/api.js';

// hostile-input: malformed or hostile answers give a typed error or a skipped thread with a reason, never a crash,
// and never a "thread" the rest of the client cannot trust.

function apiAnswering(json: unknown) {
  const http: HttpClient = {
    pauseEnds: undefined,
    lastDate: undefined,
    call: async () => ({ status: 200, json, text: JSON.stringify(json) ?? '' }),
  };
  return createServiceApi(http);
}

const field = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.object({ maxDepth: 1 }),
);
const threadLike = fc.record(
  {
    id: fc.oneof(fc.string({ minLength: 1 }), fc.integer(), field),
    project_id: fc.oneof(fc.constantFrom('c/bitcoin', 'ethereum', ''), field),
    text: fc.oneof(fc.string(), field),
    timestamp: fc.oneof(
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      field,
    ),
    locked: fc.oneof(fc.boolean(), field),
    price_on_fetch: fc.oneof(fc.double(), fc.string(), field),
    citations: fc.oneof(
      fc.array(fc.record({ url: field, title: field }, { requiredKeys: [] }), { maxLength: 3 }),
      field,
    ),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  fc.jsonValue(),
  fc.array(threadLike, { maxLength: 8 }),
  fc.record({ threads: fc.array(threadLike, { maxLength: 8 }), total: fc.integer() }),
  fc.record({
    data: fc.oneof(
      fc.array(threadLike, { maxLength: 4 }),
      fc.record({ threads: fc.array(threadLike, { maxLength: 4 }) }),
    ),
  }),
);

describe('the thread list, whatever the service sends', () => {
  it('yields trustworthy threads and identified malformed ones, or a ResponseError', async () => {
    await fc.assert(
      fc.asyncProperty(body, async (json) => {
        let page: ThreadPage;
        try {
          page = await apiAnswering(json).threads(50, null);
        } catch (error) {
          expect(error).toBeInstanceOf(ResponseError);
          return;
        }
        for (const thread of page.threads) {
          expect(typeof thread.id).toBe('string');
          expect(thread.id.length).toBeGreaterThan(0);
          expect(isIsoInstant(thread.timestamp)).toBe(true);
          expect(typeof thread.text).toBe('string');
          expect(typeof thread.locked).toBe('boolean');
          expect(Array.isArray(thread.citations)).toBe(true);
          expect(thread.priceOnFetch === undefined || Number.isFinite(thread.priceOnFetch)).toBe(true);
        }
        for (const bad of page.malformed) {
          expect(bad.id.length).toBeGreaterThan(0);
          expect(isIsoInstant(bad.timestamp)).toBe(true);
          expect(bad.reason).toMatch(/malformed|path segment/);
        }
        for (const undated of page.undated) expect(undated.id.length).toBeGreaterThan(0);
        expect(page.threads.length + page.malformed.length + page.undated.length + page.unidentifiable).toBe(page.size);
      }),
      { numRuns: 400, seed: 20261122 },
    );
  });

  it('one thread, whatever the service sends: a thread or a ResponseError', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.jsonValue(), threadLike, fc.record({ thread: threadLike, comment_count: fc.integer() })),
        async (json) => {
          try {
            const thread = await apiAnswering(json).thread('t1');
            expect(thread.id.length).toBeGreaterThan(0);
            expect(Number.isFinite(Date.parse(thread.timestamp))).toBe(true);
          } catch (error) {
            expect(error).toBeInstanceOf(ResponseError);
          }
        },
      ),
      { numRuns: 300, seed: 20261122 },
    );
  });
});
