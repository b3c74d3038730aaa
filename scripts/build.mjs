// Bundles the command into one CommonJS file: no TypeScript, no loaders, no node_modules at run time
// (see docs/performance.md: a CJS bundle also avoids Node 22's cost of `import 'node:http'` from ESM).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// commander requires child_process at load, for executable subcommands we do not have; loading it costs
// every cron run ten internal modules. Inside commander only, it is loaded on first use instead.
const lazyChildProcess = {
  name: 'lazy-child-process-for-commander',
  setup(build) {
    build.onResolve({ filter: /^node:child_process$/ }, (args) =>
      args.importer.includes(`${'node_modules'}/commander/`)
        ? { path: 'lazy-child-process', namespace: 'lazy' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      contents: "module.exports = { spawn: (...args) => require('node:child_process').spawn(...args) };",
      loader: 'js',
    }));
  },
};

// undici (the LLM analyzer's HTTP client) is half the size of everything else together, and only a run
// that asks a model needs it: it is its own file beside the bundle, required on first use, so the cron
// run that finds nothing new neither reads nor keeps it (docs/performance.md).
const undiciApart = (where = './undici.cjs') => ({
  name: 'undici-apart',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: where, external: true }));
  },
});

// `import os from 'node:os'` becomes esbuild's __toESM(require('node:os')), which copies every export of
// the module onto a new object, each time one is imported: ~0.15 ms a module on every run (env-paths alone
// imports three at load, on --version too). A built-in module's default export is the module itself, so a
// plain require() gives the same object without the copy. Only that exact line is rewritten, and only in a
// file's leading imports, where it runs where the import would (built-ins have no load-order effects). In
// src/ such an import is never type-only (tsconfig: verbatimModuleSyntax), so nothing new gets loaded.
const builtinDefaultImports = {
  name: 'builtin-default-imports',
  setup(build) {
    const statement = /^import (\w+) from '(node:[a-z_/]+)';$/;
    build.onLoad({ filter: /\.(js|mjs|ts)$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes("from 'node:")) return undefined;
      const lines = text.split('\n');
      let changed = false;
      for (let i = 0, inImport = false; i < lines.length; i++) {
        const line = lines[i];
        const match = statement.exec(line);
        if (match && isBuiltin(match[2])) {
          lines[i] = `const ${match[1]} = require('${match[2]}');`;
          changed = true;
        } else if (inImport || line.startsWith('import ')) {
          inImport = !/['"];?\s*$/.test(line); // a multi-line import ends with its module's name
        } else if (!/^\s*($|\/\/|\/\*|\*|['"]use strict['"])/.test(line)) {
          break; // the first statement that is not an import: the header is over
        }
      }
      if (!changed) return undefined;
      return {
        contents: lines.join('\n'),
        loader: args.path.endsWith('.ts') ? 'ts' : 'js',
        resolveDir: path.dirname(args.path),
      };
    });
  },
};

// Minified but for the names: a stack trace under --verbose then says `UsageError` and `runCli`, not `w`
// and `bg`. With the code cache V8 hardly parses the file, and counted by callgrind the longer names cost
// nothing (--version and config get ran 1% fewer instructions than fully minified; keepNames instead cost
// 3% and 9% more, for its __name() calls). The file grows from 325 to 448 KB, the run by 0.5 MB.
// Licence comments are dropped from the code and collected into one notices file instead (below).
const commonJs = {
  write: false,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20.19',
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
};

const vendor = await build({
  ...commonJs,
  // Its own names would show only inside a model request's stack: fully minified, half the size.
  minify: true,
  stdin: { contents: "module.exports = require('undici');", resolveDir: process.cwd(), loader: 'js' },
});

const result = await build({
  ...commonJs,
  entryPoints: ['src/main.ts'],
  outfile: 'dist/agent.cjs',
  plugins: [lazyChildProcess, undiciApart(), builtinDefaultImports],
  // A CommonJS bundle needs no native import(): bin/agent.cjs runs it through vm.Script, where import()
  // has no loader and throws. This turns `await import('node:https')` and the like into require().
  supported: { 'dynamic-import': false },
  define: { 'process.env.AGENT_BUILD_VERSION': JSON.stringify(version) },
});

// The first line names this exact build: the code cache is stored under that name, because V8 checks only
// the source's length before trusting a cache. Written to a temp file and renamed, so a run that starts
// during a rebuild (cron during `npm install`) loads the old bundle or the new one, never half of one.
const code = result.outputFiles[0].contents;
// One character outside ASCII (esbuild escapes them in strings, not in regular expressions) makes V8 hold
// the whole 300 KB source as two bytes a character: twice the memory, and a slower start on every run.
const wide = code.findIndex((byte) => byte > 0x7f);
if (wide !== -1) {
  const around = Buffer.from(code.subarray(Math.max(0, wide - 60), wide + 20)).toString('utf8');
  throw new Error(
    `dist/agent.cjs would not be ASCII; write the character as a \\u escape in the source. Near: ${around}`,
  );
}
const buildId = createHash('sha256').update(code).digest('hex').slice(0, 16);
mkdirSync('dist', { recursive: true });
// The part first: a run that starts between the two renames finds the new part, which the old bundle
// loads the same way.
writeFileSync('dist/undici.cjs.tmp', vendor.outputFiles[0].contents);
renameSync('dist/undici.cjs.tmp', 'dist/undici.cjs');
writeFileSync('dist/agent.cjs.tmp', Buffer.concat([Buffer.from(`/*build:${buildId}*/\n`), code]));
renameSync('dist/agent.cjs.tmp', 'dist/agent.cjs');

writeFileSync('dist/THIRD-PARTY-NOTICES.txt', notices([vendor.metafile, result.metafile]));

// The test build (npm test's setup asks for it): the same bundle around test/support/test-entry.ts, which
// adds the fault-injection hooks. Outside dist/, so it never ships; it loads dist's undici.
if (process.argv.includes('--with-test-entry')) {
  await build({
    ...commonJs,
    write: true,
    metafile: false,
    entryPoints: ['test/support/test-entry.ts'],
    outfile: 'test/.build/agent-test.cjs',
    plugins: [lazyChildProcess, undiciApart('../../dist/undici.cjs'), builtinDefaultImports],
    supported: { 'dynamic-import': false },
    define: { 'process.env.AGENT_BUILD_VERSION': JSON.stringify(version) },
  });
}

// The code cache is an optimisation: a build without one still works.
try {
  execFileSync(process.execPath, ['scripts/code-cache.cjs'], {
    stdio: 'inherit',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
} catch (error) {
  console.warn(`code cache not written: ${error.message}`);
}

/**
 * The package ships the bundle and no node_modules, so the licences of the code bundled into it travel in
 * dist/THIRD-PARTY-NOTICES.txt: every package esbuild took a file from, with its licence text.
 */
function notices(metafiles) {
  const roots = new Set();
  for (const metafile of metafiles) {
    for (const input of Object.keys(metafile.inputs)) {
      const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
      if (match) roots.add(match[1]);
    }
  }
  const sections = [...roots].sort().map((root) => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    const file = readdirSync(root).find((name) => /^(licen[cs]e|copying)(\.|$)/i.test(name));
    const text =
      file && existsSync(path.join(root, file))
        ? readFileSync(path.join(root, file), 'utf8').trim()
        : `License: ${pkg.license}`;
    return `${pkg.name} ${pkg.version} (${pkg.license})\n\n${text}\n`;
  });
  const rule = `\n${'-'.repeat(72)}\n\n`;
  return `dist/agent.cjs and dist/undici.cjs bundle the following packages.\n${rule}${sections.join(rule)}`;
}
