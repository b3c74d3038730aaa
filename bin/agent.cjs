#!/usr/bin/env node
'use strict';
// Runs the one bundled file. It is compiled with the V8 code cache the build wrote beside it for this
// exact build (named by the build id on the bundle's first line, since V8 itself checks only the length)
// and this V8 (the only one that accepts it): a cron run then skips most parsing and compiling. Without
// one (a package packed by another Node) it is `require('../dist/agent.cjs')` with Node's own compile
// cache where there is one (22.1+), which does the same from a temp dir.
//
// This file is also the one loader of the bundle: scripts/code-cache.cjs requires it for runBundle, to take
// the cache the same way it is used here, or V8 would reject it and every cron run would compile again.
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
// The class of every CommonJS module: the same as require('node:module') without loading that module's
// public face (~0.3 ms of every run).
const Module = module.constructor;

// V8 keeps the name a cache was taken under and shows it in stack traces: the package's own layout, not
// the build machine's path, travels with a packed tarball.
const SHIPPED_NAME = 'prediction-agent/dist/agent.cjs';
const bundle = path.join(__dirname, '..', 'dist', 'agent.cjs');

if (require.main === module) {
  // The build makes the bundle ASCII, so latin1 reads it exactly as utf8 would, without the decoding (~0.2 ms).
  const source = readBundle();
  if (source !== undefined) run(source);
} else {
  module.exports = { runBundle, SHIPPED_NAME };
}

function readBundle() {
  try {
    return fs.readFileSync(bundle).toString('latin1');
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
    // A clone before `npm ci`: a stack trace about a missing file would not say what to do.
    const root = path.join(__dirname, '..');
    const message = `the command is not built: ${bundle} is missing`;
    process.stderr.write(
      `agent: ${message} (run "npm ci" in ${root}, or "npm run build" if its dependencies are installed)\n`,
    );
    if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify({ error: { code: 1, message } })}\n`);
    process.exitCode = 1;
    return undefined;
  }
}

function run(source) {
  const buildId = /^\/\*build:([0-9a-f]+)\*\//.exec(source);
  let cachedData;
  try {
    if (buildId) cachedData = fs.readFileSync(`${bundle}.${buildId[1]}.${process.versions.v8}.cache`);
  } catch {
    // no cache for this build: compile as usual
  }
  if (cachedData === undefined) {
    Module.enableCompileCache?.();
    require(bundle);
  } else {
    runBundle(bundle, source, cachedData, module);
  }
}

/**
 * Runs `source` (the bundle at `file`) as the CommonJS module require() would make of it, whose parent is
 * `parent`, handing V8 `cachedData` when there is one. Returns the script, from which the build takes the
 * cache once the run is over. This relies on the bundle having no native import(): vm.Script has no loader.
 */
function runBundle(file, source, cachedData, parent) {
  const script = new vm.Script(Module.wrap(source), { filename: SHIPPED_NAME, cachedData });
  const mod = new Module(file, parent);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(path.dirname(file));
  require.cache[file] = mod; // it is loaded, as require() would record it
  script.runInThisContext()(mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
  return script;
}
