import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLlmAnalyzer, type LlmOptions } from '../../../src/analysis/llm/index.js';
import type { Analyzer, Trace } from '../../../src/analysis/types.js';
import type { Thread } from '../../../src/domain/thread.js';
import { AnalyzerConfigError, AnalyzerError } from '../../../src/errors.js';
import { failure } from '../../support/failure.js';
import { completion, decisionReply, startFakeLlm, type FakeLlm } from '../../support/fake-llm.js';
import { profile, thread } from '../fixtures.js';

// The analyzer against a real loopback server: what it sends, what it makes of each kind of answer,
// when it tries again. Sleeps are recorded, not slept; timeouts are short and assertions on time loose.

const KEY = 'sk-test-0123456789abcdefSECRET';
const POST = {
  action: 'post',
  conviction: 1.2,
  text: 'Bullish on c/bitcoin: ETF inflows surge. Expect +1.2% in 3h.',
  reason: 'ETF inflows',
};

const servers: FakeLlm[] = [];
const analyzers: Analyzer[] = [];
let sleeps: number[] = [];

afterEach(async () => {
  await Promise.all(analyzers.splice(0).map((a) => a.close?.()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
  sleeps = [];
});

async function server(): Promise<FakeLlm> {
  const s = await startFakeLlm();
  servers.push(s);
  return s;
}

function llm(s: FakeLlm, overrides: Partial<LlmOptions> = {}): Analyzer {
  const analyzer = createLlmAnalyzer({
    baseUrl: s.baseUrl,
    model: 'qwen2.5:7b-instruct',
    apiKey: KEY,
    timeoutMs: 2_000,
    timing: { now: () => Date.now(), sleep: async (ms) => void sleeps.push(ms) },
    ...overrides,
  });
  analyzers.push(analyzer);
  return analyzer;
}

const btc = () =>
  thread('Bullish on c/bitcoin: ETF inflows surge, breakout above resistance.', { priceOnFetch: 64000.5 });

/** The failure, checked for what every failure must be: an AnalyzerError that never shows the key. */
async function analyzerFailure(analyzer: Analyzer, trace: Trace = []): Promise<AnalyzerError> {
  const error = await failure(analyzer.analyze(btc(), profile(), trace));
  expect(error).toBeInstanceOf(AnalyzerError);
  expect(`${error.message} ${error.hint ?? ''} ${trace.join('\n')}`).not.toContain(KEY);
  return error as AnalyzerError;
}

describe('a good answer', () => {
  it('sends the model, the schema, the key and the thread as data, and returns the decision', async () => {
    const s = await server();
    s.reply(decisionReply(POST));
    const trace: Trace = [];
    const output = await llm(s).analyze(btc(), profile(), trace);

    expect(output).toEqual({ kind: 'decision', action: 'post', conviction: 1.2, text: POST.text });
    expect(s.requests).toHaveLength(1);
    const [request] = s.requests;
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request!.headers['content-type']).toBe('application/json');
    const body = JSON.parse(request!.body);
    expect(body).toMatchObject({
      model: 'qwen2.5:7b-instruct',
      temperature: 0,
      response_format: { type: 'json_schema', json_schema: { name: 'prediction_decision', strict: true } },
    });
    expect(body.messages[0].content).not.toContain('ETF inflows surge');
    expect(body.messages[1].content).toContain(
      '"text": "Bullish on c/bitcoin: ETF inflows surge, breakout above resistance."',
    );
    expect(trace).toEqual([
      expect.stringMatching(/^llm: asked qwen2\.5:7b-instruct at http:\/\/127\.0\.0\.1:\d+ \(\d+ ms, 440 tokens\)$/),
      'llm: answered post +1.2',
    ]);
  });

  it('sends no authorization header without a key', async () => {
    const s = await server();
    s.reply(decisionReply({ action: 'skip', conviction: 0, text: '', reason: 'no news, just chatter' }));
    const trace: Trace = [];
    const output = await llm(s, { apiKey: undefined }).analyze(btc(), profile(), trace);
    expect(output).toEqual({ kind: 'decision', action: 'skip', reason: 'no news, just chatter' });
    expect(s.requests[0]!.headers.authorization).toBeUndefined();
    expect(trace.at(-1)).toBe('llm: answered skip: no news, just chatter');
  });

  it('never sends an outcome the Thread object happens to carry', async () => {
    const s = await server();
    s.reply(decisionReply(POST));
    const leaky = { ...btc(), price_on_eval: 70123.45, priceOnEval: 70123.45 } as Thread;
    await llm(s).analyze(leaky, profile(), []);
    expect(s.requests[0]!.body).toContain('64000.5');
    expect(s.requests[0]!.body).not.toContain('70123.45');
    expect(s.requests[0]!.body).not.toMatch(/eval/i);
  });

  it('accepts an answer in a ```json fence', async () => {
    const s = await server();
    s.reply({ body: completion(`\`\`\`json\n${JSON.stringify(POST)}\n\`\`\``) });
    await expect(llm(s).analyze(btc(), profile(), [])).resolves.toMatchObject({ action: 'post', conviction: 1.2 });
  });

  it('keeps a path prefix and a base URL given with a trailing slash', async () => {
    const s = await server();
    s.reply(decisionReply(POST));
    await llm(s, { baseUrl: `${s.origin}/api/v1/` }).analyze(btc(), profile(), []);
    expect(s.requests[0]!.path).toBe('/api/v1/chat/completions');
  });
});

describe('answers that are refused without a retry', () => {
  const cases: [string, Parameters<FakeLlm['reply']>[0], RegExp][] = [
    ['truncated', { body: completion('{"action": "post", "convic', { finish_reason: 'length' }) }, /truncated/],
    [
      'refused',
      { body: completion(null, { refusal: 'I cannot help with financial predictions.' }) },
      /refused: I cannot help with financial predictions\./,
    ],
    [
      'schema-breaking',
      { body: completion(JSON.stringify({ action: 'buy', size: 'big' })) },
      /breaks the decision schema \(action: /,
    ],
    [
      'a conviction as text',
      { body: completion(JSON.stringify({ ...POST, conviction: '+1.2' })) },
      /conviction: must be a number/,
    ],
    ['empty content', { body: completion('') }, /empty content/],
    ['no choices', { body: { choices: [] } }, /no choices/],
    [
      'an error inside a 200',
      { body: { error: { message: 'upstream provider failed' } } },
      /answered with an error: upstream provider failed/,
    ],
    [
      'a body that is not JSON',
      { body: '<html><title>Welcome to nginx</title></html>', headers: { 'content-type': 'text/html' } },
      /not JSON: Welcome to nginx/,
    ],
    ['a huge body', { body: `{"choices": "${'x'.repeat(2 * 1024 * 1024)}"}` }, /more than 1024 KiB; refused/],
  ];
  it.each(cases)('%s', async (_name, reply, message) => {
    const s = await server();
    s.reply(reply, decisionReply(POST));
    const error = await analyzerFailure(llm(s));
    expect(error.message).toMatch(message);
    expect(s.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });
});

describe('a 4xx other than 408 and 429: the configuration, not the thread, is wrong', () => {
  const cases: [string, Parameters<FakeLlm['reply']>[0], RegExp, RegExp][] = [
    [
      '401, with the key echoed back',
      { status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}` } } },
      /refused the model's API key \(401\): Incorrect API key provided: …CRET$/,
      /model's key, not the service's: .*llm\.key-file.*AGENT_LLM_API_KEY/,
    ],
    ['403', { status: 403, body: 'forbidden' }, /refused the model's API key \(403\)/, /llm\.key-file/],
    [
      '400 from llama-server',
      {
        status: 400,
        body: { error: { code: 400, message: 'Failed to initialize samplers', type: 'invalid_request_error' } },
      },
      /refused the request \(400\): Failed to initialize samplers/,
      /another model.*analyzer\.fallback builtin/,
    ],
    [
      '404',
      { status: 404, body: { error: { message: 'model "qwen2.5:7b-instruct" not found' } } },
      /no such model or address \(404\)/,
      /llm\.model.*analyzer\.fallback builtin/,
    ],
  ];
  it.each(cases)(
    '%s: an AnalyzerConfigError (exit 1) that says what to change, asked once',
    async (_name, reply, message, hint) => {
      const s = await server();
      s.reply(reply, decisionReply(POST));
      const error = await failure(llm(s).analyze(btc(), profile(), []));
      expect(error).toBeInstanceOf(AnalyzerConfigError);
      expect((error as AnalyzerConfigError).exitCode).toBe(1);
      expect(error.message).toMatch(message);
      expect((error as AnalyzerConfigError).hint).toMatch(hint);
      expect(`${error.message} ${(error as AnalyzerConfigError).hint}`).not.toContain(KEY);
      expect(s.requests).toHaveLength(1);
      expect(sleeps).toEqual([]);
    },
  );
});

describe('a redirect', () => {
  it('is not followed: the key never reaches the other server', async () => {
    const s = await server();
    const elsewhere = await server();
    s.reply({ status: 302, headers: { location: `${elsewhere.baseUrl}/chat/completions` }, body: 'moved' });
    elsewhere.reply(decisionReply(POST));
    const error = await analyzerFailure(llm(s));
    expect(error.message).toContain(`answered 302, a redirect to ${elsewhere.origin}; not followed`);
    expect(s.requests).toHaveLength(1);
    expect(elsewhere.requests).toHaveLength(0);
  });
});

describe('one retry', () => {
  it('after a 500, then the answer', async () => {
    const s = await server();
    s.reply({ status: 500, body: { error: { message: 'model is loading' } } }, decisionReply(POST));
    const trace: Trace = [];
    await expect(llm(s).analyze(btc(), profile(), trace)).resolves.toMatchObject({ action: 'post' });
    expect(s.requests).toHaveLength(2);
    expect(sleeps).toEqual([1000]);
    expect(trace).toContain('llm: retrying after HTTP 500, in 1 s');
  });

  it('after a 429, waiting the short Retry-After it asks for', async () => {
    const s = await server();
    s.reply(
      { status: 429, headers: { 'retry-after': '2' }, body: { error: { message: 'slow down' } } },
      decisionReply(POST),
    );
    await expect(llm(s).analyze(btc(), profile(), [])).resolves.toMatchObject({ action: 'post' });
    expect(sleeps).toEqual([2000]);
  });

  it('not after a 429 that asks for a long pause', async () => {
    const s = await server();
    s.reply(
      { status: 429, headers: { 'retry-after': '60' }, body: { error: { message: 'slow down' } } },
      decisionReply(POST),
    );
    const error = await analyzerFailure(llm(s));
    expect(error.message).toMatch(/failed \(429\): slow down; the server asked for a pause of 60 s, not waited out/);
    expect(s.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('and only one: two 503s fail', async () => {
    const s = await server();
    s.reply({ status: 503, body: 'overloaded' }, { status: 503, body: 'overloaded' }, decisionReply(POST));
    const error = await analyzerFailure(llm(s));
    expect(error.message).toMatch(/failed \(503\): overloaded \(tried twice\)$/);
    expect(s.requests).toHaveLength(2);
  });

  it('after a timeout, then the answer', async () => {
    const s = await server();
    s.reply({ hang: true }, decisionReply(POST));
    const trace: Trace = [];
    await expect(llm(s, { timeoutMs: 300 }).analyze(btc(), profile(), trace)).resolves.toMatchObject({
      action: 'post',
    });
    expect(s.requests).toHaveLength(2);
    expect(trace[0]).toBe('llm: retrying after a timeout, in 1 s');
  });

  it('after a slow answer, and a second timeout fails', async () => {
    const s = await server();
    s.reply({ delayMs: 3_000, body: completion(JSON.stringify(POST)) }, { hang: true });
    const error = await analyzerFailure(llm(s, { timeoutMs: 300 }));
    expect(s.requests).toHaveLength(2);
    expect(error.message).toMatch(/gave no complete answer within 0\.3 s \(tried twice\)/);
    expect(error.hint).toMatch(/analyzer\.timeout/);
    expect(s.requests).toHaveLength(2);
  });

  it('after a refused connection, once', async () => {
    const s = await server();
    const analyzer = llm(s);
    await s.close();
    const error = await analyzerFailure(analyzer);
    expect(error.message).toMatch(/cannot reach .* \(ECONNREFUSED\) \(tried twice\)/);
    expect(sleeps).toEqual([1000]);
  });

  it('not when the run has no time left for it', async () => {
    const s = await server();
    s.reply({ status: 502, body: 'bad gateway' }, decisionReply(POST));
    const error = await analyzerFailure(llm(s, { deadline: Date.now() + 800 }));
    expect(error.message).toMatch(/no time left in this run to try again/);
    expect(s.requests).toHaveLength(1);
  });
});

describe('close()', () => {
  it('closes the connection undici keeps alive, so the process can exit', async () => {
    const s = await server();
    s.reply(decisionReply(POST));
    const analyzer = llm(s);
    await analyzer.analyze(btc(), profile(), []);
    expect(await s.connections()).toBe(1);
    await analyzer.close!();
    await vi.waitFor(async () => expect(await s.connections()).toBe(0), { timeout: 5_000, interval: 20 });
  });

  it('leaves a dispatcher it was given open', async () => {
    const { Agent } = await import('undici');
    const dispatcher = new Agent();
    const s = await server();
    s.reply(decisionReply(POST), decisionReply(POST));
    const analyzer = llm(s, { dispatcher });
    await analyzer.analyze(btc(), profile(), []);
    await analyzer.close!();
    await expect(llm(s, { dispatcher }).analyze(btc(), profile(), [])).resolves.toMatchObject({ action: 'post' });
    await dispatcher.close();
  });

  it('is harmless before any request', async () => {
    const s = await server();
    await expect(llm(s).close!()).resolves.toBeUndefined();
  });
});
