#!/usr/bin/env node
'use strict';
// Runs the one bundled file. It is compiled with the V8 code cache the build wrote beside it, if V8
// accepts it (same Node, same bundle): a cron run then skips most parsing and compiling. See
// scripts/code-cache.cjs. Without a usable cache this is exactly `require('../dist/agent.cjs')`.
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');

const bundle = path.join(__dirname, '..', 'dist', 'agent.cjs');
let cachedData;
try {
  cachedData = fs.readFileSync(`${bundle}.cache`);
} catch {
  // no cache: compile as usual
}
if (cachedData === undefined) {
  require(bundle);
} else {
  const script = new vm.Script(Module.wrap(fs.readFileSync(bundle, 'utf8')), { filename: bundle, cachedData });
  const mod = new Module(bundle, module);
  mod.filename = bundle;
  mod.paths = Module._nodeModulePaths(path.dirname(bundle));
  require.cache[bundle] = mod; // it is loaded, as require() would record it
  script.runInThisContext()(mod.exports, Module.createRequire(bundle), mod, bundle, path.dirname(bundle));
}
