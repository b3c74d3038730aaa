// A manual conviction as a user types it, off a terminal (as a script or cron would run predict).
import { expect, it } from 'vitest';
import { BULLISH, minutesAgo, registeredWorlds, type World } from './harness.js';

const registered = registeredWorlds();
const posts = (w: World) => w.sandbox.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/comment/'));

async function withThread() {
  const w = await registered();
  w.sandbox.addThread({ id: 'p', text: BULLISH, citations: [], project_id: 'c/bitcoin', timestamp: minutesAgo(1) });
  return w;
}

it.each(['-150', '0x10', '1e1', 'Infinity', '1 5', '99999999999'])(
  'refuses --conviction %j with exit 2 and sends nothing',
  async (value) => {
    const w = await withThread();
    const result = await w.agent(['predict', 'p', '--conviction', value]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^agent: --conviction/);
    expect(posts(w)).toHaveLength(0);
  },
);

it('takes "1%" as 1.0', async () => {
  const w = await withThread();
  const result = await w.agent(['predict', 'p', '--conviction', '1%', '--json']);
  expect(result.code, result.stderr).toBe(0);
  expect(w.sandbox.comments()[0]!.conviction).toBe(1);
});

it("a size beyond the profile's for the cell is refused off a terminal, and posted with --yes", async () => {
  const w = await withThread();
  const refused = await w.agent(['predict', 'p', '--conviction', '5']);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain(
    '+5.0% on c/bitcoin is beyond the largest size your profile (moderate) posts there, ±1.3%',
  );
  expect(refused.stderr).toContain('--yes');
  expect(posts(w)).toHaveLength(0);
  expect((await w.agent(['predict', 'p', '--conviction', '5', '--yes'])).code).toBe(0);
  expect(w.sandbox.comments()[0]!.conviction).toBe(5);
});
