import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeThread, builtinAnalyzer, type Analyzer } from '../../src/analysis/index.js';
import type { Profile } from '../../src/domain/profile.js';
import {
  AnalyzerError,
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
import { postPrediction, prepareThread, type PrepareDeps, type ToPost } from '../../src/poll/handle-thread.js';
import type { PostResult } from '../../src/service/api.js';
import type { JournalEntry } from '../../src/state/schema.js';
import { fakeApi } from '../support/fake-api.js';
import { thread } from '../support/threads.js';

// One thread from analysis to outcome, with the real built-in analyzer and a fake service. That the
// "posting" mark is durable before the POST is poll's part: test/e2e/faults.test.ts checks it on disk.

const PROFILE: Profile = { signal_method: 'sentiment', conviction_style: 'moderate', directional_bias: 'neutral', participation: 'active' };
const BULLISH = thread('t-1', '2025-06-01T12:00:00.000Z', {
  text: 'Bullish on c/bitcoin: ETF inflows surge, breakout above resistance, whales accumulating.',
});
const QUIET = thread('t-2', '2025-06-01T12:01:00.000Z', { text: 'Quiet day, nothing to report.' });

let decision: { conviction: number; text: string };
beforeAll(async () => {
  const analyzed = await analyzeThread(builtinAnalyzer, BULLISH, PROFILE);
  if (analyzed.decision.action !== 'post') throw new Error('the fixture thread should read as a post');
  decision = analyzed.decision;
});

function deps(predict?: (threadId: string, text: string, conviction: number) => Promise<PostResult>, extra: Partial<PrepareDeps> = {}) {
  const trace: string[] = [];
  const api = fakeApi(predict ? { predict } : {});
  const prepare: PrepareDeps = { analyzer: builtinAnalyzer, profile: PROFILE, dryRun: false, trace: (line) => trace.push(line), ...extra };
  return { prepare, api, trace };
}

const post = (): ToPost => ({ kind: 'post', conviction: decision.conviction, text: decision.text });

describe('before any request', () => {
  it('a thread an earlier run was posting on is unknown, never posted again (R2)', async () => {
    const { prepare, api } = deps();
    const outcome = await prepareThread(BULLISH, { ts: BULLISH.timestamp, status: 'posting' }, prepare);
    expect(outcome).toEqual({ kind: 'unknown', error: expect.stringContaining('interrupted while posting') });
    expect(api.calls).toEqual([]);
  });

  it('a locked thread is skipped', async () => {
    const { prepare, api } = deps();
    await expect(prepareThread({ ...BULLISH, locked: true }, undefined, prepare)).resolves.toEqual({ kind: 'skipped', reason: 'locked' });
    expect(api.calls).toEqual([]);
  });

  it('a decision to skip posts nothing and gives the reason', async () => {
    const { prepare, api, trace } = deps();
    const outcome = await prepareThread(QUIET, undefined, prepare);
    expect(outcome).toMatchObject({ kind: 'skipped', reason: expect.stringContaining('no evidence') });
    expect(api.calls).toEqual([]);
    expect(trace[0]).toBe('analyzer: builtin');
  });

  it('a dry run reports the post without sending or journaling it', async () => {
    const { prepare, api } = deps(undefined, { dryRun: true });
    const outcome = await prepareThread(BULLISH, undefined, prepare);
    expect(outcome).toEqual({ kind: 'posted', conviction: decision.conviction, text: decision.text, predictionId: null });
    expect(api.calls).toEqual([]);
  });

  it('an analysis that throws is a failure to retry, not a crash', async () => {
    const broken: Analyzer = { name: 'broken', analyze: async () => Promise.reject(new Error('boom')) };
    const { prepare, api } = deps(undefined, { analyzer: broken });
    const outcome = await prepareThread(BULLISH, undefined, prepare);
    expect(outcome).toMatchObject({ kind: 'failed', retry: true, exitCode: EXIT.temporary, error: expect.stringMatching(/^analysis failed: /) });
    expect(api.calls).toEqual([]);
  });

  it("the chosen analyzer decides, and one that cannot answer leaves the thread due (never a made-up post)", async () => {
    const own: Analyzer = { name: 'mine', analyze: async () => ({ kind: 'decision', action: 'post', conviction: -0.4, text: 'Bearish: my own script reads this thread as a sell signal.' }) };
    await expect(prepareThread(BULLISH, undefined, deps(undefined, { analyzer: own }).prepare)).resolves.toEqual({
      kind: 'post',
      conviction: -0.4,
      text: 'Bearish on c/bitcoin: my own script reads this thread as a sell signal. Expect -0.4% in 3h.',
    });
    const broken: Analyzer = {
      name: 'mine',
      analyze: async () => {
        throw new AnalyzerError('the analyzer command timed out after 10 s');
      },
    };
    const { prepare, api } = deps(undefined, { analyzer: broken });
    await expect(prepareThread(BULLISH, undefined, prepare)).resolves.toEqual({
      kind: 'failed',
      retry: true,
      exitCode: EXIT.temporary,
      error: 'analysis failed: the analyzer command timed out after 10 s',
    });
    expect(api.calls).toEqual([]);
  });
});

describe('preparing a post', () => {
  it('a thread to post on comes back as the decision, with nothing sent', async () => {
    const { prepare, api } = deps();
    await expect(prepareThread(BULLISH, { ts: BULLISH.timestamp, status: 'failed', tries: 2 }, prepare)).resolves.toEqual(post());
    expect(api.calls).toEqual([]);
  });
});

describe('posting', () => {
  it('sends the decision and reports the prediction id', async () => {
    const sent: unknown[] = [];
    const { api } = deps(async (...args) => {
      sent.push(args);
      return { status: 'posted', prediction: { id: 'c-9' } };
    });
    const outcome = await postPrediction(BULLISH, post(), api);
    expect(sent).toEqual([[BULLISH.id, decision.text, decision.conviction]]);
    expect(outcome).toEqual({ kind: 'posted', conviction: decision.conviction, text: decision.text, predictionId: 'c-9' });
  });

  it('a post whose answer could not be read is still posted, with no prediction id', async () => {
    const { api } = deps(async () => ({ status: 'posted', prediction: undefined }));
    await expect(postPrediction(BULLISH, post(), api)).resolves.toMatchObject({ kind: 'posted', predictionId: null });
  });

  it('"already predicted" (409) is a skip', async () => {
    const { api } = deps(async () => ({ status: 'already' }));
    await expect(postPrediction(BULLISH, post(), api)).resolves.toEqual({ kind: 'skipped', reason: 'already predicted by this agent' });
  });
});

describe('each failure of the POST becomes its outcome', () => {
  type Expect = { kind: 'skipped' | 'stop' | 'failed' | 'unknown'; retry?: boolean; exitCode?: number };
  const cases: Array<[what: string, error: Error, expected: Expect]> = [
    ['403 locked', new LockedError('thread "t-1" is locked'), { kind: 'skipped' }],
    ['401', new AuthError('the service rejected the API key (401)'), { kind: 'stop' }],
    ['429 beyond the back-off', new RateLimitedError('rate limited', Date.now() + 60_000), { kind: 'stop' }],
    ['a timeout after sending: may have landed', new TimeoutError('no complete answer'), { kind: 'unknown' }],
    ['a timeout before the request was sent: never sent', new TimeoutError('could not send', true), { kind: 'failed', retry: true, exitCode: EXIT.temporary }],
    ['the run budget is spent: stop, the rest stays due', new BudgetError(), { kind: 'stop' }],
    ['an address that cannot work as set up: never sent, and no later post can be', new ConnectionSetupError('certificate not trusted'), { kind: 'stop' }],
    ['a connection lost after sending: may have landed', new NetworkError('ECONNRESET', false), { kind: 'unknown' }],
    ['an unreadable answer: may have landed', new ResponseError('too large'), { kind: 'unknown' }],
    ['a refused connection: never sent', new NetworkError('ECONNREFUSED', true), { kind: 'failed', retry: true, exitCode: EXIT.temporary }],
    ['a 5xx', new ServerError('the service failed (503)', 503), { kind: 'failed', retry: true, exitCode: EXIT.temporary }],
    ["a gateway's 502: may have landed behind it", new ServerError('the service failed (502)', 502), { kind: 'unknown' }],
    ["a gateway's 504: may have landed behind it", new ServerError('the service failed (504)', 504), { kind: 'unknown' }],
    ['a 400', new RejectedError('the service refused the request (400)', 400), { kind: 'failed', retry: false, exitCode: EXIT.unexpected }],
    ["a 307 redirect: not the thread's fault, stop and leave it due", new RedirectError('redirect', 307), { kind: 'stop' }],
    ['a 302 redirect: stop', new RedirectError('redirect', 302), { kind: 'stop' }],
    ['a 303 See Other: the POST was processed, may have landed', new RedirectError('redirect', 303), { kind: 'unknown' }],
    ['an id that cannot be sent', new UsageError('".." cannot be sent as an id'), { kind: 'failed', retry: false, exitCode: EXIT.unexpected }],
    ['a bug', new TypeError('x is undefined'), { kind: 'failed', retry: false, exitCode: EXIT.unexpected }],
  ];

  it.each(cases)('%s', async (_what, error, expected) => {
    const { api } = deps(async () => {
      throw error;
    });
    const outcome = await postPrediction(BULLISH, post(), api);
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
    const outcome = await postPrediction(BULLISH, post(), api);
    expect(outcome).toMatchObject({ kind: 'failed', error: 'the service failed (500): red line two' });
  });
});
