// Writes dist/agent.cjs.cache: V8's code cache for the bundle, taken after one real `agent poll` that
// finds nothing new (the cron run), so that it holds every function that run compiles. bin/agent.cjs
// hands it to V8, which then skips parsing and compiling them on every run (Node 20 has no compile
// cache of its own; Node 22's module.enableCompileCache does the same into a temp dir). V8 rejects a
// cache made by another V8 version or for another source, and then simply compiles as usual.
//
// The poll runs against a stub service on loopback with a throwaway config dir: nothing leaves the machine.
'use strict';
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { runBundle } = require('../bin/agent.cjs');

const bundle = path.resolve(__dirname, '..', 'dist', 'agent.cjs');
const source = fs.readFileSync(bundle, 'utf8');
const buildId = /^\/\*build:([0-9a-f]+)\*\//.exec(source)?.[1];
if (!buildId) throw new Error(`${bundle} has no build id on its first line`);
// Named after the build (see build.mjs) and the V8 that made it, the only one that accepts it: a Node of
// another version finds no cache of its own and uses its own compile cache instead (bin/agent.cjs). Caches
// of earlier builds can only be stale.
const cacheFile = `${bundle}.${buildId}.${process.versions.v8}.cache`;
for (const name of fs.readdirSync(path.dirname(bundle))) {
  if (/^agent\.cjs\..*cache$/.test(name)) fs.rmSync(path.join(path.dirname(bundle), name), { force: true });
}

const server = http.createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(req.url.startsWith('/thread') ? '[]' : '{}');
});
// Unref'd: the poll's own request keeps the process up, and once the poll is over it may end.
server.unref();
server.listen(0, '127.0.0.1', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-code-cache-'));
  const configDir = path.join(dir, 'config');
  fs.mkdirSync(configDir, { mode: 0o700 });
  const state = {
    apiKey: 'hive_codecachecodecachecodecache',
    agentName: 'code-cache',
    cursor: { timestamp: new Date(0).toISOString(), id: '0' },
    baseUrl: `http://127.0.0.1:${server.address().port}`,
  };
  fs.writeFileSync(path.join(configDir, 'state.json'), JSON.stringify(state), { mode: 0o600 });

  process.argv = [process.argv[0], bundle, '--config-dir', configDir, 'poll'];
  const script = runBundle(bundle, source, undefined, module);

  // The bundle's main() is asynchronous: take the cache once its run is over and the process is idle.
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  process.once('beforeExit', () => {
    const ok = process.exitCode === 0 || process.exitCode === undefined;
    server.close();
    if (!ok) {
      console.warn(`code cache not written: the warm-up poll exited ${process.exitCode}`);
      process.exitCode = 0;
      return;
    }
    fs.writeFileSync(`${cacheFile}.tmp`, script.createCachedData());
    fs.renameSync(`${cacheFile}.tmp`, cacheFile);
  });
});
