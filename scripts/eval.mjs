// `npm run eval`: bundles the TypeScript evaluation (scripts/eval/) and runs it; no build of the command needed.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = mkdtempSync(path.join(tmpdir(), 'agent-eval-'));
const outfile = path.join(dir, 'eval.mjs');
await build({
  entryPoints: ['scripts/eval/main.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  logLevel: 'warning',
});
try {
  await import(pathToFileURL(outfile).href);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
