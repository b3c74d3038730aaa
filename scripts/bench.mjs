// `npm run bench`: bundles the TypeScript benchmark (it starts the sandbox in-process) and runs it.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = mkdtempSync(path.join(tmpdir(), 'agent-bench-'));
const outfile = path.join(dir, 'bench.mjs');
await build({
  entryPoints: ['scripts/bench/main.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  logLevel: 'warning',
});
try {
  process.exitCode = (await import(pathToFileURL(outfile).href)).exitCode;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
