// Preloaded into a measured run with --require: at exit, records the peak RSS and every module file the
// process loaded, so the bench can check "one bundled file" and the memory target.
'use strict';
const fs = require('node:fs');
process.on('exit', () => {
  const out = process.env.BENCH_PROBE_OUT;
  if (!out) return;
  const modules = Object.keys(require.cache).filter((file) => !file.endsWith('probe.cjs'));
  const heap = require('node:v8')
    .getHeapSpaceStatistics()
    .map((s) => [s.space_name, Math.round(s.space_size / 1024)]);
  fs.writeFileSync(
    out,
    JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS, modules, memory: process.memoryUsage(), heap }),
  );
});
