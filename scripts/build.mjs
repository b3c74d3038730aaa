// Bundles the command into one CommonJS file: no TypeScript, no loaders, no node_modules at run time
// (see shared/design/performance.md: a CJS bundle also avoids Node 22's cost of `import 'node:http'` from ESM).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// commander requires child_process at load, for executable subcommands we do not have; loading it costs
// every cron run ten internal modules. Inside commander only, it is loaded on first use instead.
const lazyChildProcess = {
  name: 'lazy-child-process-for-commander',
  setup(build) {
    build.onResolve({ filter: /^node:child_process$/ }, (args) =>
      args.importer.includes(`${'node_modules'}/commander/`) ? { path: 'lazy-child-process', namespace: 'lazy' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      contents: "module.exports = { spawn: (...args) => require('node:child_process').spawn(...args) };",
      loader: 'js',
    }));
  },
};

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
  plugins: [lazyChildProcess],
  define: { 'process.env.AGENT_BUILD_VERSION': JSON.stringify(version) },
});

// The code cache is an optimisation: a build without one still works.
try {
  execFileSync(process.execPath, ['scripts/code-cache.cjs'], { stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: '' } });
} catch (error) {
  console.warn(`code cache not written: ${error.message}`);
}
