// `node scripts/run-ts.mjs <entry.ts>`: bundles a TypeScript script of the repository (the bench, the eval)
// with esbuild and runs it, so neither needs a build of the command or a TypeScript loader. The exit code
// is the script's `exitCode` export, or what it set itself.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const entry = process.argv[2];
if (!entry) throw new Error('usage: node scripts/run-ts.mjs <entry.ts>');
const dir = mkdtempSync(path.join(tmpdir(), `agent-${path.basename(path.dirname(entry))}-`));
const outfile = path.join(dir, 'main.mjs');
await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  logLevel: 'warning',
  // CommonJS packages bundled into ESM (commander, for the docs) still require Node's built-ins.
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
});
try {
  const { exitCode } = await import(pathToFileURL(outfile).href);
  if (exitCode !== undefined) process.exitCode = exitCode;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
