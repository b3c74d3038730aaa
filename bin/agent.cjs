#!/usr/bin/env node
'use strict';
// Runs the one bundled file. It is compiled with the V8 code cache the build wrote beside it for this
// exact build (named by the build id on the bundle's first line, since V8 itself checks only the length)
// and this V8 (the only one that accepts it): a cron run then skips most parsing and compiling. See
// bin/run-bundle.cjs. Without one (a package packed by another Node) it is `require('../dist/agent.cjs')`
// with Node's own compile cache where there is one (22.1+), which does the same from a temp dir.
const fs = require('node:fs');
const path = require('node:path');

const bundle = path.join(__dirname, '..', 'dist', 'agent.cjs');
// The build makes the bundle ASCII, so latin1 reads it exactly as utf8 would, without the decoding (~0.2 ms).
const source = readBundle();
if (source !== undefined) run(source);

function readBundle() {
  try {
    return fs.readFileSync(bundle).toString('latin1');
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
    // A clone before `npm ci`: a stack trace about a missing file would not say what to do.
    const root = path.join(__dirname, '..');
    const message = `the command is not built: ${bundle} is missing`;
    process.stderr.write(`agent: ${message} (run "npm ci" in ${root}, or "npm run build" if its dependencies are installed)\n`);
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
    module.constructor.enableCompileCache?.();
    require(bundle);
  } else {
    require('./run-bundle.cjs').runBundle(bundle, source, cachedData, module);
  }
}
