import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeThread, builtinAnalyzer, type Analyzer } from '../../src/analysis/index.js';
import type { Profile } from '../../src/domain/profile.js';
import { AnalyzerError, EXIT } from '../../src/errors.js';
import { prepareThread, type PrepareDeps } from '../../src/poll/prepare-thread.js';
import type { ToPost } from '../../src/posting/outcome.js';
import type { PostResult } from '../../src/service/api.js';
import { fakeApi } from '../support/fake-api.js';
import { thread } from '../support/threads.js';

// One thread from the journal and the analyzer to what is to be posted, with the real built-in analyzer
// and a fake service that must not be called. The POST itself: test/posting/.

const PROFILE: Profile = {
  signal_method: 'sentiment',
  conviction_style: 'moderate',
  directional_bias: 'neutral',
  participation: 'active',
};
const BULLISH = thread('t-1', '2025-06-01T12:00:00.000Z', {
  text: 'Bullish on c/bitcoin: ETF inflows surge, breakout above resistance, whales accumulating.',
});
const KEY = 'ak_0123456789abcdefGHIJ';
const QUIET = thread('t-2', '2025-06-01T12:01:00.000Z', { text: 'Quiet day, nothing to report.' });

let decision: { conviction: number; text: string };
beforeAll(async () => {
  const analyzed = await analyzeThread(builtinAnalyzer, BULLISH, PROFILE);
  if (analyzed.decision.action !== 'post') throw new Error('the fixture thread should read as a post');
  decision = analyzed.decision;
});

function deps(
  predict?: (threadId: string, text: string, conviction: number) => Promise<PostResult>,
  extra: Partial<PrepareDeps> = {},
) {
  const trace: string[] = [];
  const api = fakeApi(predict ? { predict } : {});
  const prepare: PrepareDeps = {
    analyzer: builtinAnalyzer,
    profile: PROFILE,
    dryRun: false,
    keys: [KEY],
    trace: (line) => trace.push(line),
    ...extra,
  };
  return { prepare, api, trace };
}

// The built-in analyzer decided: the outcome says so, for the history.
const post = (): ToPost => ({
  kind: 'post',
  conviction: decision.conviction,
  text: decision.text,
  by: { analyzer: 'builtin' },
});

describe('before any request', () => {
  it('a thread an earlier run was posting on is unknown, never posted again (never-twice)', async () => {
    const { prepare, api } = deps();
    const outcome = await prepareThread(BULLISH, { ts: BULLISH.timestamp, status: 'posting' }, prepare);
    expect(outcome).toEqual({ kind: 'unknown', error: expect.stringContaining('interrupted while posting') });
    expect(api.calls).toEqual([]);
  });

  it('a locked thread is skipped', async () => {
    const { prepare, api } = deps();
    await expect(prepareThread({ ...BULLISH, locked: true }, undefined, prepare)).resolves.toEqual({
      kind: 'skipped',
      skipKind: 'locked',
      reason: 'locked',
    });
    expect(api.calls).toEqual([]);
  });

  it('a thread whose cell holds a key is skipped before any analyzer reads it', async () => {
    const read: string[] = [];
    const spy: Analyzer = {
      name: 'spy',
      analyze: async (t) => {
        read.push(t.id);
        return { kind: 'signal', strength: 1, evidence: [] };
      },
    };
    const { prepare, api } = deps(undefined, { analyzer: spy });
    const keyed = { ...BULLISH, cell: KEY.toLowerCase(), projectId: `c/${KEY.toLowerCase()}` };
    await expect(prepareThread(keyed, undefined, prepare)).resolves.toMatchObject({
      kind: 'skipped',
      skipKind: 'keyed-thread',
    });
    expect(read).toEqual([]);
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
    expect(outcome).toEqual({
      kind: 'posted',
      conviction: decision.conviction,
      text: decision.text,
      predictionId: null,
      by: { analyzer: 'builtin' },
    });
    expect(api.calls).toEqual([]);
  });

  it('an analysis that throws is a failure to retry, not a crash', async () => {
    const broken: Analyzer = { name: 'broken', analyze: async () => Promise.reject(new Error('boom')) };
    const { prepare, api } = deps(undefined, { analyzer: broken });
    const outcome = await prepareThread(BULLISH, undefined, prepare);
    expect(outcome).toMatchObject({
      kind: 'failed',
      retry: true,
      exitCode: EXIT.temporary,
      error: expect.stringMatching(/^analysis failed: /),
    });
    expect(api.calls).toEqual([]);
  });

  it('the chosen analyzer decides, and one that cannot answer leaves the thread due (never a made-up post)', async () => {
    const own: Analyzer = {
      name: 'mine',
      analyze: async () => ({
        kind: 'decision',
        action: 'post',
        conviction: -0.4,
        text: 'Bearish: my own script reads this thread as a sell signal.',
      }),
    };
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
    await expect(
      prepareThread(BULLISH, { ts: BULLISH.timestamp, status: 'failed', tries: 2 }, prepare),
    ).resolves.toEqual(post());
    expect(api.calls).toEqual([]);
  });
});
