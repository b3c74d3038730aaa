import { afterEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../support/fake-llm.js';
import { BULLISH, minutesAgo, registeredWorlds, type World } from './harness.js';

// JSON nested thousands of levels deep is valid JSON: it must be refused as a bad answer (exit 5, a clear
// message), not overflow the stack somewhere downstream and be reported as a bug.

const registered = registeredWorlds();
const DEPTH = 20_000;
const nestedData = `${'{"data":'.repeat(DEPTH)}{}${'}'.repeat(DEPTH)}`;
const nestedThreads = `${'{"threads":'.repeat(DEPTH)}[]${'}'.repeat(DEPTH)}`;

function answerAlways(w: World, body: string): void {
  w.sandbox.intercept((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    return true;
  });
}

describe('the service answers with JSON nested 20,000 deep', () => {
  it.each([
    ['me', ['me'], nestedData],
    ['poll', ['poll'], nestedThreads],
    ['predict', ['predict', 'x', '--conviction', '1'], nestedData],
  ])('%s: a bad answer, exit 5, not a bug', async (_name, args, body) => {
    const w = await registered();
    answerAlways(w, body);
    const result = await w.agent([...args, '--json']);
    expect(result.stderr).not.toContain('Maximum call stack');
    expect(result.code, result.stderr).toBe(5);
    expect(JSON.parse(result.stdout).error.message).toContain('nested more than 64 levels deep');
  });
});

describe('a model answers with JSON nested 20,000 deep', () => {
  let llm: FakeLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
  });

  it.each([
    ['the body', `{"error":${nestedData}}`],
    [
      'its content',
      JSON.stringify({ choices: [{ message: { content: `{"action":"post","conviction":1,"x":${nestedData}}` } }] }),
    ],
  ])('in %s: the analysis fails with a clear message, exit 5', async (_where, body) => {
    const w = await registered();
    llm = await startFakeLlm();
    llm.reply({ body }, { body });
    for (const [key, value] of [
      ['llm.base-url', llm.baseUrl],
      ['llm.model', 'test-model'],
      ['analyzer', 'llm'],
    ]) {
      expect((await w.agent(['config', 'set', key!, value!])).code).toBe(0);
    }
    w.sandbox.addThread({ id: 'a', text: BULLISH, project_id: 'c/bitcoin', timestamp: minutesAgo(2) });
    const result = await w.agent(['analyze', 'a']);
    expect(result.stderr).not.toContain('Maximum call stack');
    expect(result.code, result.stderr).toBe(5);
    expect(result.stderr).toContain('nested more than 64 levels deep');
  });
});
