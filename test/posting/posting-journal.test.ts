import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LockLostError, StateError } from '../../src/errors.js';
import { createHttpClient } from '../../src/http/client.js';
import type { HttpRequest, Transport } from '../../src/http/transport.js';
import type { ToPost } from '../../src/posting/outcome.js';
import { postOnce } from '../../src/posting/post-once.js';
import { heldJournal } from '../../src/posting/post-once.js';
import { createServiceApi } from '../../src/service/api.js';
import { holdState } from '../../src/state/held-state.js';
import type { Journal, State } from '../../src/state/schema.js';
import { createStateStore } from '../../src/state/state-store.js';
import { failing, systemError } from '../support/file-ops.js';
import { thread } from '../support/threads.js';
import { fakeTiming, T0 } from '../support/timing.js';

// The never-twice mark as poll and predict give it to postOnce: one implementation over the held state,
// on a real state file, with the requests counted at the transport.

const BASE = 'http://127.0.0.1:9';
const START: State = {
  apiKey: 'hive_0123456789abcdefSECRETKEY',
  agentName: 'bot',
  cursor: { timestamp: '2025-06-01T11:00:00.000Z', id: 'c' },
  baseUrl: BASE,
};
const post: ToPost = { kind: 'post', conviction: 1.2, text: 'c/bitcoin: inflows and a breakout; up 1.2% over 3 h.' };
const OLD = thread('old', '2025-06-01T12:00:00.000Z');
const NEW = thread('new', '2025-06-01T12:05:00.000Z');
const AT = new Date(T0).toISOString();

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-marks-'));
  createStateStore(dir).write(START);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const onDisk = (): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(dir, 'state.json'), 'utf8'));

/** A transport that answers every POST with a 201, and notes what the state file said when it was sent. */
function countingTransport(): Transport & { sent: Array<{ request: HttpRequest; disk: Record<string, unknown> }> } {
  const sent: Array<{ request: HttpRequest; disk: Record<string, unknown> }> = [];
  return {
    sent,
    async send(request) {
      sent.push({ request, disk: onDisk() });
      return { status: 201, headers: {}, body: JSON.stringify({ id: `p-${sent.length}` }) };
    },
    close: () => undefined,
  };
}

function apiOver(transport: Transport) {
  return createServiceApi(
    createHttpClient({ baseUrl: new URL(BASE), apiKey: START.apiKey, transport, timing: fakeTiming() }),
  );
}

describe('heldJournal', () => {
  it('marks each thread "posting" with its tries and the time, in the journal it was given', () => {
    const journal: Journal = new Map();
    heldJournal(undefined, journal, () => T0).markPosting([
      { thread: OLD, tries: 0 },
      { thread: NEW, tries: 3 },
    ]);
    expect(Object.fromEntries(journal)).toEqual({
      old: { ts: OLD.timestamp, status: 'posting', at: AT },
      new: { ts: NEW.timestamp, status: 'posting', tries: 3, at: AT },
    });
  });

  it('the whole batch is on disk, in one fenced write, before the first POST leaves', async () => {
    const store = createStateStore(dir);
    let fenced = 0;
    const held = holdState(store, START, {
      confirm: () => {
        fenced += 1;
      },
    });
    const transport = countingTransport();
    const sent = await postOnce(
      [OLD, NEW].map((t) => ({ thread: t, post })),
      { api: apiOver(transport), journal: heldJournal(held, new Map(), () => T0) },
    );
    expect(sent.map((item) => item.outcome.kind)).toEqual(['posted', 'posted']);
    expect(transport.sent.map(({ request }) => `${request.method} ${request.url.pathname}`)).toEqual([
      'POST /comment/old',
      'POST /comment/new',
    ]);
    // Before the rename and after it: the lock's check of one-writer, once for the one write.
    expect(fenced).toBe(2);
    for (const { disk } of transport.sent)
      expect(disk.journal).toEqual({
        old: { ts: OLD.timestamp, status: 'posting', at: AT },
        new: { ts: NEW.timestamp, status: 'posting', at: AT },
      });
  });

  it('a mark refused by the fence (the lock was taken over) sends no request', async () => {
    const store = createStateStore(dir);
    const lost = new LockLostError('the run lock was taken over by another run');
    const held = holdState(store, START, {
      confirm: () => {
        throw lost;
      },
    });
    const transport = countingTransport();
    await expect(
      postOnce([{ thread: OLD, post }], { api: apiOver(transport), journal: heldJournal(held, new Map(), () => T0) }),
    ).rejects.toBe(lost);
    expect(transport.sent).toEqual([]);
    expect(onDisk().journal).toBeUndefined();
  });

  it('a mark the disk cannot take (ENOSPC) sends no request, and the old state stays whole', async () => {
    const full = systemError('ENOSPC');
    const store = createStateStore(dir, { files: failing('writeFileSync', full) });
    const held = holdState(store, START, { confirm: () => undefined });
    const transport = countingTransport();
    await expect(
      postOnce([{ thread: OLD, post }], { api: apiOver(transport), journal: heldJournal(held, new Map(), () => T0) }),
    ).rejects.toThrow(StateError);
    expect(transport.sent).toEqual([]);
    expect(onDisk()).toEqual({ version: 1, ...START });
  });
});
