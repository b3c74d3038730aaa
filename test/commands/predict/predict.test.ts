import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type PredictOptions, runPredict } from '../../../src/commands/predict/run.js';
import { onlineContext, registerWith } from '../../support/in-process.js';
import { sandboxPerTest } from '../../support/sandbox-per-test.js';

// `agent predict` in-process against a loopback sandbox: the dry run, a post by hand and what it records,
// never twice, an unknown thread. test/e2e/ runs it on the binary (crashes, locks, values as typed).

const world = sandboxPerTest('agent-predict-', { ratePerMinute: 0, backlog: 0 });

const BULLISH = 'Spot ETF inflows hit $500M as whales withdraw 10,000 BTC from exchanges; breakout above resistance.';

async function registered() {
  const dir = path.join(world.dir, 'config');
  await registerWith(world.sandbox.url, dir, 'predict-agent');
  world.sandbox.addThread({
    id: 'look',
    text: BULLISH,
    project_id: 'c/bitcoin',
    timestamp: new Date(Date.now() - 60_000).toISOString(),
  });
  return dir;
}

async function predict(dir: string, id: string, options: PredictOptions, { json = false } = {}) {
  const { ctx, run } = onlineContext(dir, undefined, { json });
  return run(() => runPredict(ctx, id, options));
}

const posts = () => world.sandbox.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/comment/'));
const history = (dir: string) =>
  fs
    .readFileSync(path.join(dir, 'history.jsonl'), 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));

describe('agent predict', () => {
  it('--dry-run: the decision, as text and --json, and nothing posted, kept or recorded', async () => {
    const dir = await registered();
    const state = fs.readFileSync(path.join(dir, 'state.json'));
    const text = await predict(dir, 'look', { dryRun: true });
    expect(text).toMatchObject({ code: 0, stderr: '' });
    expect(text.stdout).toMatch(/^Would post \+\d\.\d% on look \(c\/bitcoin\): Bullish on c\/bitcoin/);
    const doc = JSON.parse((await predict(dir, 'look', { dryRun: true }, { json: true })).stdout);
    expect(doc).toMatchObject({ action: 'post', conviction: expect.any(Number), text: expect.any(String) });
    expect(doc.prediction).toBeUndefined();
    expect(posts()).toEqual([]);
    expect(fs.readFileSync(path.join(dir, 'state.json'))).toEqual(state);
    expect(fs.existsSync(path.join(dir, 'history.jsonl'))).toBe(false);
  });

  it('own values: posted as given, shown with the prediction, recorded with a summary; a second time is a skip', async () => {
    const dir = await registered();
    const posted = await predict(
      dir,
      'look',
      { conviction: '-1.1', text: 'my own call: funding flips, I fade it' },
      { json: true },
    );
    expect(posted.code).toBe(0);
    expect(JSON.parse(posted.stdout)).toMatchObject({
      action: 'post',
      conviction: -1.1,
      text: 'my own call: funding flips, I fade it',
    });
    expect(world.sandbox.comments()).toEqual([
      expect.objectContaining({ conviction: -1.1, text: 'my own call: funding flips, I fade it' }),
    ]);
    expect(history(dir)).toEqual([
      expect.objectContaining({ kind: 'post', threadId: 'look', cell: 'bitcoin', conviction: -1.1 }),
      expect.objectContaining({ kind: 'run', summary: expect.objectContaining({ command: 'predict', posted: 1 }) }),
    ]);

    const again = await predict(dir, 'look', { conviction: '2' }, { json: true });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ action: 'skip', reason: expect.stringContaining('already') });
    expect(posts()).toHaveLength(1);
  });

  it("skips by the poll's rule: a cell that holds the key is a skip of that kind, own values or not", async () => {
    const dir = await registered();
    const { apiKey } = JSON.parse(fs.readFileSync(path.join(dir, 'state.json'), 'utf8'));
    world.sandbox.addThread({
      id: 'keyed',
      text: BULLISH,
      project_id: `c/${apiKey}`,
      timestamp: new Date(Date.now() - 60_000).toISOString(),
    });
    for (const options of [{ conviction: '1.5' }, {}]) {
      const result = await predict(dir, 'keyed', options, { json: true });
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({
        action: 'skip',
        skipKind: 'keyed-thread',
        reason: expect.stringContaining('key'),
      });
    }
    expect(posts()).toEqual([]);
    expect(history(dir).filter((r) => r.kind === 'skip')).toEqual([
      expect.objectContaining({ threadId: 'keyed', skipKind: 'keyed-thread' }),
      expect.objectContaining({ threadId: 'keyed', skipKind: 'keyed-thread' }),
    ]);
  });

  it('own values out of bounds: a usage error (exit 2) before anything is fetched or sent', async () => {
    const dir = await registered();
    const before = world.sandbox.requests.length;
    const result = await predict(dir, 'look', { conviction: '1', text: 'too short' });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(/^agent: .*--text.*20/);
    expect(world.sandbox.requests.length).toBe(before);
  });

  it('an unknown thread: exit 2, its id kept in one path segment, the failed run recorded', async () => {
    const dir = await registered();
    const result = await predict(dir, '../agent/me', { conviction: '1' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no such thread');
    expect(world.sandbox.requests.at(-1)!.path).toBe('/thread/..%2Fagent%2Fme');
    expect(history(dir).at(-1)).toMatchObject({
      kind: 'run',
      summary: { command: 'predict', exitCode: 2, error: expect.stringContaining('agent/me') },
    });
  });
});
