import { afterEach, describe, expect, it } from 'vitest';
import { decisionReply, startFakeLlm, type FakeLlm } from '../support/fake-llm.js';
import { BULLISH, minutesAgo, registeredWorlds, type World } from './harness.js';

// A model server that refuses the request itself (llama-server's "400 Failed to initialize samplers" for a
// model it cannot constrain) will refuse it for every thread, every run: a configuration problem, said
// once with the fix, that spends no thread's tries.

const registered = registeredWorlds();
const SAMPLERS = {
  status: 400,
  body: { error: { code: 400, message: 'Failed to initialize samplers', type: 'invalid_request_error' } },
};

let llm: FakeLlm | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

async function useModel(w: World, extra: Record<string, string> = {}): Promise<FakeLlm> {
  llm = await startFakeLlm();
  // The analyzer last: config set refuses it until what it needs is set.
  for (const [name, value] of Object.entries({
    'llm.base-url': llm.baseUrl,
    'llm.model': 'tiny-model',
    ...extra,
    analyzer: 'llm',
  })) {
    expect((await w.agent(['config', 'set', name, value])).code).toBe(0);
  }
  return llm;
}

function addThreads(w: World, n: number): void {
  for (let i = 0; i < n; i++)
    w.sandbox.addThread({ id: `t${i}`, text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(10 - i) });
}

describe('a model that answers 400 to the request itself', () => {
  it('poll says so with the fix, exits 1, and the threads stay due with no try spent', async () => {
    const w = await registered();
    const model = await useModel(w);
    addThreads(w, 6);
    for (let run = 0; run < 6; run++) {
      model.reply(SAMPLERS, SAMPLERS, SAMPLERS, SAMPLERS);
      const result = await w.agent(['poll']);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain('refused the request (400): Failed to initialize samplers');
      expect(result.stderr).toContain('agent config set analyzer.fallback builtin');
      expect(result.stderr).not.toContain('this is a bug');
      expect(result.stderr).not.toContain('given up');
    }
    expect(w.sandbox.comments()).toEqual([]);
    const journal = w.state().journal as Record<string, { status: string; tries?: number }>;
    expect(Object.values(journal).every((entry) => entry.status === 'failed' && entry.tries === undefined)).toBe(true);
    expect(w.state().cursor).toBeNull();

    // Fixed: every thread is still there to be predicted on.
    for (let i = 0; i < 6; i++)
      model.reply(
        decisionReply({
          action: 'post',
          conviction: 1,
          text: 'ETF inflows and whale withdrawals point up.',
          reason: '',
        }),
      );
    const fixed = await w.agent(['poll']);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(w.sandbox.comments()).toHaveLength(6);
  });

  it('with analyzer.fallback builtin, the built-in analyzer decides and the run says so once', async () => {
    const w = await registered();
    const model = await useModel(w, { 'analyzer.fallback': 'builtin' });
    addThreads(w, 2);
    model.reply(SAMPLERS, SAMPLERS);
    const result = await w.agent(['poll']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('the llm analyzer failed on 2 thread(s), so the built-in analyzer decided');
    expect(w.sandbox.comments()).toHaveLength(2);
  });

  it("a 401 from the model names the model's key, not the service's, and exits 1", async () => {
    const w = await registered();
    const model = await useModel(w);
    addThreads(w, 1);
    model.reply({ status: 401, body: { error: { message: 'Incorrect API key provided' } } });
    const result = await w.agent(['predict', 't0'], { env: { AGENT_LLM_API_KEY: 'sk-wrong-key-0123456789' } });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain("refused the model's API key (401)");
    expect(result.stderr).toContain('llm.key-file');
    expect(result.stderr).not.toContain('agent register');
  });
});

describe('backtest against a model that is not there', () => {
  it('stops after a few threads with one clear error instead of trying all 40', async () => {
    const w = await registered();
    const dead = await startFakeLlm();
    const baseUrl = dead.baseUrl;
    await dead.close(); // nothing listens there any more: every connection is refused
    for (const [name, value] of [
      ['llm.base-url', baseUrl],
      ['llm.model', 'tiny-model'],
      ['analyzer', 'llm'],
    ]) {
      expect((await w.agent(['config', 'set', name!, value!])).code).toBe(0);
    }
    const result = await w.agent(['backtest', 'examples/backtest-sample.json'], { timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(5);
    expect(result.stderr).toMatch(
      /stopped after \d threads in a row could not reach the analyzer: cannot reach tiny-model at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
    );
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  }, 70_000);
});
