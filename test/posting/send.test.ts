import { describe, expect, it } from 'vitest';
import {
  AuthError,
  BudgetError,
  ConnectionSetupError,
  EXIT,
  LockedError,
  NetworkError,
  RateLimitedError,
  RedirectError,
  RejectedError,
  ResponseError,
  ServerError,
  TimeoutError,
  UsageError,
} from '../../src/errors.js';
import type { ToPost } from '../../src/posting/outcome.js';
import { sendPrediction } from '../../src/posting/send.js';
import type { PostResult } from '../../src/service/api.js';
import { fakeApi } from '../support/fake-api.js';
import { thread } from '../support/threads.js';

// One POST and what its answer means for the thread, with a fake service.

const BULLISH = thread('t-1', '2025-06-01T12:00:00.000Z', { text: 'Bullish on c/bitcoin: ETF inflows surge.' });
const decision = { conviction: 1.2, text: 'c/bitcoin: ETF inflows surge and a breakout; up 1.2% over 3 h.' };
const post = (): ToPost => ({ kind: 'post', ...decision });
const deps = (predict: (threadId: string, text: string, conviction: number) => Promise<PostResult>) => ({
  api: fakeApi({ predict }),
});

describe('posting', () => {
  it('sends the decision and reports the prediction id', async () => {
    const sent: unknown[] = [];
    const { api } = deps(async (...args) => {
      sent.push(args);
      return { status: 'posted', prediction: { id: 'c-9' } };
    });
    const outcome = await sendPrediction(BULLISH, post(), api);
    expect(sent).toEqual([[BULLISH.id, decision.text, decision.conviction]]);
    expect(outcome).toEqual({
      kind: 'posted',
      conviction: decision.conviction,
      text: decision.text,
      predictionId: 'c-9',
      prediction: { id: 'c-9' },
    });
  });

  it('a post whose answer could not be read is still posted, with no prediction id', async () => {
    const { api } = deps(async () => ({ status: 'posted', prediction: undefined }));
    await expect(sendPrediction(BULLISH, post(), api)).resolves.toMatchObject({ kind: 'posted', predictionId: null });
  });

  it('"already predicted" (409) is a skip', async () => {
    const { api } = deps(async () => ({ status: 'already' }));
    await expect(sendPrediction(BULLISH, post(), api)).resolves.toEqual({
      kind: 'skipped',
      skipKind: 'already-predicted',
      reason: 'already predicted by this agent',
      predicted: true,
    });
  });
});

describe('each failure of the POST becomes its outcome', () => {
  type Expect = { kind: 'skipped' | 'stop' | 'failed' | 'unknown'; retry?: boolean; exitCode?: number };
  const cases: Array<[what: string, error: Error, expected: Expect]> = [
    ['403 locked', new LockedError('thread "t-1" is locked'), { kind: 'skipped' }],
    ['401', new AuthError('the service rejected the API key (401)'), { kind: 'stop' }],
    ['429 beyond the back-off', new RateLimitedError('rate limited', Date.now() + 60_000), { kind: 'stop' }],
    ['a timeout after sending: may have landed', new TimeoutError('no complete answer'), { kind: 'unknown' }],
    [
      'a timeout before the request was sent: never sent',
      new TimeoutError('could not send', true),
      { kind: 'failed', retry: true, exitCode: EXIT.temporary },
    ],
    ['the run budget is spent: stop, the rest stays due', new BudgetError(), { kind: 'stop' }],
    [
      'an address that cannot work as set up: never sent, and no later post can be',
      new ConnectionSetupError('certificate not trusted'),
      { kind: 'stop' },
    ],
    ['a connection lost after sending: may have landed', new NetworkError('ECONNRESET', false), { kind: 'unknown' }],
    ['an unreadable answer: may have landed', new ResponseError('too large'), { kind: 'unknown' }],
    [
      'a refused connection: never sent',
      new NetworkError('ECONNREFUSED', true),
      { kind: 'failed', retry: true, exitCode: EXIT.temporary },
    ],
    [
      'a 5xx',
      new ServerError('the service failed (503)', 503),
      { kind: 'failed', retry: true, exitCode: EXIT.temporary },
    ],
    [
      "a gateway's 502: may have landed behind it",
      new ServerError('the service failed (502)', 502),
      { kind: 'unknown' },
    ],
    [
      "a gateway's 504: may have landed behind it",
      new ServerError('the service failed (504)', 504),
      { kind: 'unknown' },
    ],
    [
      'a 400',
      new RejectedError('the service refused the request (400)', 400),
      { kind: 'failed', retry: false, exitCode: EXIT.unexpected },
    ],
    [
      "a 307 redirect: not the thread's fault, stop and leave it due",
      new RedirectError('redirect', 307),
      { kind: 'stop' },
    ],
    ['a 302 redirect: stop', new RedirectError('redirect', 302), { kind: 'stop' }],
    [
      'a 303 See Other: the POST was processed, may have landed',
      new RedirectError('redirect', 303),
      { kind: 'unknown' },
    ],
    [
      'an id that cannot be sent',
      new UsageError('".." cannot be sent as an id'),
      { kind: 'failed', retry: false, exitCode: EXIT.unexpected },
    ],
    ['a bug', new TypeError('x is undefined'), { kind: 'failed', retry: false, exitCode: EXIT.unexpected }],
  ];

  it.each(cases)('%s', async (_what, error, expected) => {
    const { api } = deps(async () => {
      throw error;
    });
    const outcome = await sendPrediction(BULLISH, post(), api);
    expect(outcome.kind).toBe(expected.kind);
    if (outcome.kind === 'stop') expect(outcome.error).toBe(error);
    if (outcome.kind === 'skipped') expect(outcome.reason).toBe('locked');
    if (outcome.kind === 'unknown') expect(outcome.error).toContain('not posted again');
    if (outcome.kind === 'failed') {
      expect(outcome.retry).toBe(expected.retry);
      expect(outcome.exitCode).toBe(expected.exitCode);
      expect(outcome.error).toContain(error.message);
      if (!expected.retry && expected.exitCode === EXIT.temporary) expect(outcome.error).toContain('not posted again');
    }
  });

  it('the error text is one clean line', async () => {
    const { api } = deps(async () => {
      throw new ServerError('the service failed (500): \u001b[31mred\u001b[0m\nline two', 500);
    });
    const outcome = await sendPrediction(BULLISH, post(), api);
    expect(outcome).toMatchObject({ kind: 'failed', error: 'the service failed (500): red line two' });
  });
});
