import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { expect, it } from 'vitest';
import { BIN } from './harness.js';

const { SHIPPED_NAME } = createRequire(import.meta.url)('../../bin/agent.cjs') as { SHIPPED_NAME: string };

// bin/agent.cjs silently compiles from source when V8 rejects the cache, which costs every cron run
// ~15 ms and shows nowhere else: V8 rejects a cache taken with other V8 flags, so a warm-up run that
// changed them (the batch tuning in main.ts) would do exactly that.
it('the code cache the build wrote is accepted by this Node, as bin/agent.cjs hands it over', () => {
  const bundle = path.join(path.dirname(BIN), '..', 'dist', 'agent.cjs');
  const source = fs.readFileSync(bundle, 'utf8');
  const buildId = /^\/\*build:([0-9a-f]+)\*\//.exec(source)?.[1];
  expect(buildId).toBeDefined();
  const cachedData = fs.readFileSync(`${bundle}.${buildId}.${process.versions.v8}.cache`);
  const { wrap } = createRequire(import.meta.url)('node:module') as { wrap: (code: string) => string };
  const script = new vm.Script(wrap(source), { filename: SHIPPED_NAME, cachedData });
  expect(script.cachedDataRejected).toBe(false);
});

it('the code cache carries no path of the machine that built it', () => {
  const dist = path.join(path.dirname(BIN), '..', 'dist');
  const caches = fs.readdirSync(dist).filter((name) => name.endsWith('.cache'));
  expect(caches).toHaveLength(1);
  const bytes = fs.readFileSync(path.join(dist, caches[0]!)).toString('latin1');
  expect(bytes).not.toContain(path.resolve(dist));
  expect(bytes).toContain('prediction-agent/dist/agent.cjs');
});
