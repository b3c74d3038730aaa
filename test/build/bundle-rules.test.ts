import fs from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// bin/agent.cjs runs dist/agent.cjs through vm.Script with a code cache, and scripts/build.mjs
// rewrites some imports for start-up's sake. Each rule they depend on is checked here, on the bundle the
// test run built and on the sources, so that breaking one fails a test instead of a user's cron run.

const root = path.join(import.meta.dirname, '..', '..');
const bundle = fs.readFileSync(path.join(root, 'dist', 'agent.cjs'));

describe('the bundle', () => {
  it('has no native import(): vm.Script has no module loader, so one would throw at run time', () => {
    expect(bundle.toString('latin1')).not.toMatch(/\bimport\s*\(/);
  });

  it('is ASCII: one wider byte makes V8 hold the whole source as two bytes a character', () => {
    expect(bundle.findIndex((byte) => byte > 0x7f)).toBe(-1);
  });

  it('starts with the build id the code cache is named by', () => {
    expect(bundle.subarray(0, 40).toString('latin1')).toMatch(/^\/\*build:[0-9a-f]{16}\*\/\n/);
  });

  it('is run by the same loader at build time and at run time', () => {
    // Required, bin/agent.cjs runs nothing and hands out its loader.
    const loader = createRequire(import.meta.url)(path.join(root, 'bin', 'agent.cjs')) as { runBundle: unknown };
    expect(typeof loader.runBundle).toBe('function');
    const warmUp = fs.readFileSync(path.join(root, 'scripts', 'code-cache.cjs'), 'utf8');
    expect(warmUp).toContain("require('../bin/agent.cjs')");
    expect(warmUp, 'the warm-up builds its own vm.Script').not.toMatch(/new vm\.Script/);
  });
});

describe('imports of built-in modules in src/', () => {
  // The build turns exactly `import x from 'node:y';` among a file's leading imports into a plain
  // require(); any other spelling of a built-in's default import is bundled with a copy of every export.
  const EXACT = /^import (\w+) from '(node:[a-z_/]+)';$/;
  const DEFAULT_IMPORT = /^import\s+(?!type\s)\w+\s*(?:,|from)[^'"]*['"]([^'"]+)['"]/;

  function* sourceFiles(dir: string): Generator<string> {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) yield* sourceFiles(file);
      else if (entry.name.endsWith('.ts')) yield file;
    }
  }

  it('a default import of a built-in is always in the one form the rewrite handles, among the leading imports', () => {
    const misses: string[] = [];
    for (const file of sourceFiles(path.join(root, 'src'))) {
      let header = true;
      fs.readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (header && line !== '' && !/^(import |\s|\/\/|\/\*|\*|\}|['"]use strict)/.test(line)) header = false;
          const spec = DEFAULT_IMPORT.exec(line)?.[1];
          if (spec === undefined || !isBuiltin(spec)) return;
          if (!EXACT.test(line) || !header) misses.push(`${path.relative(root, file)}:${i + 1}: ${line}`);
        });
    }
    expect(misses).toEqual([]);
  });
});

describe('what start-up loads', () => {
  // Every static value import from src/main.ts runs on each start, `--version` and a cron poll with
  // nothing new included. `import type` is erased and `await import()` waits for its command.
  const STATIC = /^(?:import|export)\s+(?!type\s)[^;]*?from\s+'(\.{1,2}\/[^']+)';/gms;
  const src = path.join(root, 'src');

  function loadedAtStart(): Set<string> {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = fs.readFileSync(path.join(src, file), 'utf8');
      for (const [, spec] of text.matchAll(STATIC)) {
        visit(path.normalize(path.join(path.dirname(file), spec!.replace(/\.js$/, '.ts'))));
      }
    };
    visit('main.ts');
    return seen;
  }

  it("reaches each command's command.ts, and no command's run.ts: its work waits behind import()", () => {
    const loaded = [...loadedAtStart()];
    expect(loaded.filter((file) => /^commands\/[^/]+\/command\.ts$/.test(file)).length).toBeGreaterThan(10);
    expect(loaded.filter((file) => /^commands\/[^/]+\/run\.ts$/.test(file))).toEqual([]);
  });
});
