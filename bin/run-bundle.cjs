'use strict';
// The one way the bundle is run by hand instead of by require(): as the CommonJS module require() would
// make of it, compiled by V8 with a code cache. bin/agent.cjs runs it so on every run that has a cache;
// scripts/code-cache.cjs runs it so once at build time, to take that cache. Both must agree, or V8 would
// reject the cache and every cron run would compile from source again.
const path = require('node:path');
const vm = require('node:vm');
// The class of every CommonJS module: the same as require('node:module') without loading that module's
// public face (~0.3 ms of every run).
const Module = module.constructor;

// V8 keeps the name a cache was taken under and shows it in stack traces: the package's own layout, not
// the build machine's path, travels with a packed tarball.
const SHIPPED_NAME = 'prediction-agent/dist/agent.cjs';

/**
 * Runs `source` (the bundle at `bundle`) as a module whose parent is `parent`, handing V8 `cachedData`
 * when there is one. Returns the script, from which the build takes the cache once the run is over.
 * This relies on the bundle being CommonJS with no native import(): vm.Script has no loader for one.
 */
function runBundle(bundle, source, cachedData, parent) {
  const script = new vm.Script(Module.wrap(source), { filename: SHIPPED_NAME, cachedData });
  const mod = new Module(bundle, parent);
  mod.filename = bundle;
  mod.paths = Module._nodeModulePaths(path.dirname(bundle));
  require.cache[bundle] = mod; // it is loaded, as require() would record it
  script.runInThisContext()(mod.exports, Module.createRequire(bundle), mod, bundle, path.dirname(bundle));
  return script;
}

module.exports = { runBundle, SHIPPED_NAME };
