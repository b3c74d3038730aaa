// Bundles the command into one CommonJS file: no TypeScript, no loaders, no node_modules at run time
// (see shared/design/performance.md: a CJS bundle also avoids Node 22's cost of `import 'node:http'` from ESM).
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/agent.cjs',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20.19',
  // Full minification: V8 parses the whole file on every cron run, and a smaller file parses faster.
  minify: true,
  keepNames: false,
  legalComments: 'none',
  logLevel: 'warning',
  define: { 'process.env.AGENT_BUILD_VERSION': JSON.stringify(version) },
});
