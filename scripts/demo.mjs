// `npm start`: a one-minute tour of the agent. It starts the sandbox (the local stand-in for the service)
// with a fast clock, registers a demo agent in a temporary config dir, runs `agent poll` the way cron
// would, and shows what was posted, what was skipped and why, and how the predictions scored. It goes
// through the real command (bin/agent.cjs) and the public HTTP interface only. However it ends (done,
// failed, Ctrl-C), the sandbox is stopped and the temporary dir removed.
//
// Settings, as a flag or an env var: --seconds / DEMO_SECONDS (default 60), --speed / DEMO_SPEED (sandbox
// clock speed, default 240), --poll-every / DEMO_POLL_SECONDS (default 5), --seed / DEMO_SEED (default 1).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { getThread, parseJson, runAgent, startSandbox, stopAll } from './demo/processes.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LOCK_HOURS = 3;
/**
 * New threads arrive about this often in real time, whatever the speed: often enough that each cell's
 * threads form a price series the agent can read its own record from (docs/record.md#the-record-was-it-right).
 */
const REAL_SECONDS_PER_THREAD = 2;
const PROFILE = {
  'signal-method': 'sentiment',
  'conviction-style': 'moderate',
  'directional-bias': 'neutral',
  participation: 'active',
};

const say = (line = '') => console.log(line);
// A closed stdout (`npm start | head`) must not stop the clean-up.
process.stdout.on('error', () => {});

const run = { tmp: undefined, sandbox: undefined, stopping: false, cleaning: undefined };
const started = Date.now();
process.on('SIGINT', () => interrupt('SIGINT', 130));
process.on('SIGTERM', () => interrupt('SIGTERM', 143));
process.on('SIGHUP', () => interrupt('SIGHUP', 129));

async function main() {
  const opts = settings();
  if (!opts) return;
  if (!fs.existsSync(path.join(ROOT, 'dist', 'agent.cjs'))) {
    say('Building the agent first (dist/agent.cjs is missing)…');
    execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  }
  say(`Agent demo: ${opts.seconds} s of a polling agent against a local sandbox`);
  say('');
  say('  The sandbox is a local stand-in for the prediction service: a feed of threads (short market');
  say(`  news about a cell such as c/bitcoin). Its clock runs ${opts.speed}× faster than yours, so a thread locks`);
  say(
    `  ${LOCK_HOURS} hours after it appears (${fmtSeconds((LOCK_HOURS * 3600) / opts.speed)} here) and every prediction on it is then scored:`,
  );
  say('  honey for the right direction (more when early and close), wax for the wrong one.');
  say(`  Every ${opts.pollEvery} s the demo runs \`agent poll\`, as cron would every few minutes: it fetches the new`);
  say('  threads, reads each one and posts a prediction (a % move over the next 3 hours) or skips it.');
  say('');

  const demo = await setUp(opts);
  const end = Date.now() + opts.seconds * 1000;
  let nextPoll = Date.now();
  for (let n = 1; Date.now() < end && !run.stopping; ) {
    if (Date.now() >= nextPoll) {
      await poll(demo, n++);
      nextPoll += opts.pollEvery * 1000;
    }
    if (run.sandbox.exited)
      throw new Error(`the sandbox stopped unexpectedly: ${clip(run.sandbox.stderr, 300) || 'no message'}`);
    await checkScores(demo);
    await sleep(Math.max(0, Math.min(1000, nextPoll - Date.now(), end - Date.now())));
  }
  if (run.stopping) return;
  await checkScores(demo);
  await summary(demo);
}

/** The temporary dir, the sandbox and a registered agent. */
async function setUp(opts) {
  run.tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-demo-'));
  const configDir = path.join(run.tmp, 'config');
  // As cron runs it: no terminal, HOME and PATH only. HOME is the temporary dir, so nothing lands in yours.
  const env = { HOME: run.tmp, PATH: process.env.PATH ?? '/usr/bin:/bin' };
  say(`Temporary dir: ${run.tmp} (removed at the end)`);

  const rate = 60 / (REAL_SECONDS_PER_THREAD * opts.speed);
  // The sandbox's clock starts as far in the past as the demo will move it, so that it reaches the present
  // as the demo ends: its threads are never dated ahead of this machine's clock, which the agent distrusts.
  const behind = durationOf(opts.seconds * opts.speed);
  const { sandbox, ready } = startSandbox(
    [
      '--port',
      '0',
      '--speed',
      String(opts.speed),
      '--rate',
      rate.toFixed(6),
      '--seed',
      String(opts.seed),
      '--start',
      behind,
    ],
    env,
  );
  run.sandbox = sandbox;
  await ready;
  const sandboxStarted = Date.now();
  say(
    `Sandbox listening on ${sandbox.url} (pid ${sandbox.child.pid}, seed ${opts.seed}, a new thread every ~${REAL_SECONDS_PER_THREAD} s)`,
  );
  say('  It starts with a backlog of threads from the past 4 hours: the oldest are already locked.');

  const agent = (args) => runAgent(['--config-dir', configDir, ...args], env);
  const name = `demo-${randomBytes(3).toString('hex')}`;
  const profileFlags = Object.entries(PROFILE).flatMap(([flag, value]) => [`--${flag}`, value]);
  say('');
  say(`$ agent --config-dir ${configDir} register --base-url ${sandbox.url} --name ${name} ${profileFlags.join(' ')}`);
  const registered = await agent(['register', '--base-url', sandbox.url, '--name', name, ...profileFlags, '--json']);
  const stateFile = parseJson(registered.stdout)?.stateFile;
  if (registered.code !== 0 || typeof stateFile !== 'string')
    throw new Error(`register failed (exit ${registered.code}): ${problem(registered)}`);
  say(`  Registered ${name}; its key is in ${stateFile} (mode 600).`);
  say('');
  say(`$ agent --config-dir ${configDir} poll --json        (every ${opts.pollEvery} s)`);
  say("  Below: what each poll posted or skipped, and each prediction's score once its thread locks.");
  // The demo reads threads (GET /thread/:id) with the agent's key, as the agent does; it never prints it.
  const apiKey = JSON.parse(fs.readFileSync(stateFile, 'utf8')).apiKey;
  return {
    agent,
    read: (id) => getThread(sandbox.url, apiKey, id),
    sandboxClock: () => `sandbox clock +${fmtHours(((Date.now() - sandboxStarted) / 3_600_000) * opts.speed)}`,
    threads: new Map(), // id → { cell, conviction? (ours, once posted), scored }
    speed: opts.speed,
    toldAhead: false,
    totals: { posted: 0, skippedLocked: 0, skippedOther: 0, failed: 0, scored: 0, honey: 0, wax: 0 },
  };
}

async function poll(demo, n) {
  const { totals } = demo;
  const result = await demo.agent(['poll', '--json']);
  if (run.stopping) return;
  say('');
  say(`${clock()} poll #${n} (${demo.sandboxClock()})`);
  const doc = parseJson(result.stdout);
  if (!doc || doc.error || !Array.isArray(doc.posted)) {
    totals.failed += 1;
    say(`  failed   exit ${result.code}: ${problem(result)}`);
    return;
  }
  for (const p of doc.posted) {
    const info = await threadInfo(demo, p.threadId);
    info.conviction = p.conviction;
    totals.posted += 1;
    say(
      `  posted   ${pct(p.conviction).padStart(6)}  ${clean(p.threadId)}  ${clean(info.cell).padEnd(13)} "${clip(p.text, 90)}"`,
    );
  }
  for (const s of doc.skipped) {
    const info = await threadInfo(demo, s.threadId);
    if (s.reason === 'locked') totals.skippedLocked += 1;
    else totals.skippedOther += 1;
    say(`  skipped          ${clean(s.threadId)}  ${clean(info.cell).padEnd(13)} ${clip(s.reason, 90)}`);
  }
  for (const f of doc.failed) {
    totals.failed += 1;
    say(`  failed           ${clean(f.threadId)}  ${clip(f.error, 100)}`);
  }
  if (doc.posted.length + doc.skipped.length + doc.failed.length === 0) say('  nothing new since the last poll');
  // The sandbox's clock runs ahead of this machine's, so its threads soon are dated in the agent's future:
  // the agent says so on every poll, as it should under cron. Explained once here instead.
  const lines = result.stderr.split('\n').filter((line) => line.trim());
  const ahead = lines.filter((line) => line.includes("dated ahead of this machine's clock"));
  if (ahead.length && !demo.toldAhead) {
    demo.toldAhead = true;
    say(`  (the agent noticed threads dated ahead of your clock: the sandbox's runs ${demo.speed}× faster. It handles`);
    say('   them, and keeps its cursor at the present; under cron this would be a warning to look into.)');
  }
  const rest = lines.filter((line) => !ahead.includes(line)).join(' ');
  if (rest) say(`  (the agent said on stderr: ${clip(rest, 120)})`);
}

async function threadInfo(demo, id) {
  if (!demo.threads.has(id)) {
    const view = await demo.read(id).catch(() => undefined);
    demo.threads.set(id, { cell: view?.project_id ?? '?', scored: false });
  }
  return demo.threads.get(id);
}

/**
 * Which of our predictions have locked, and what they earned. The interface shows no score per prediction,
 * only the agent's totals (`agent me`), so: read the threads (GET /thread/:id), then `me`, then the threads
 * again. When both reads agree, the change in honey and wax since the last check is exactly the award of
 * the threads that locked in between (only this agent posts in the sandbox).
 */
async function checkScores(demo) {
  const { threads, totals } = demo;
  const open = [...threads].filter(([, t]) => t.conviction !== undefined && !t.scored).map(([id]) => id);
  const lockedNow = async () => {
    const views = await Promise.all(open.map((id) => demo.read(id).catch(() => undefined)));
    return open.filter((_, i) => views[i]?.locked === true);
  };
  let locked = await lockedNow();
  if (locked.length === 0) return;
  let me;
  for (let attempt = 0; attempt < 5; attempt++) {
    me = await agentMe(demo);
    const again = await lockedNow(); // locks only ever grow: the same length is the same set
    if (again.length === locked.length) break;
    locked = again;
  }
  if (run.stopping || !me) return;
  const honey = me.honey - totals.honey;
  const wax = me.wax - totals.wax;
  Object.assign(totals, { honey: me.honey, wax: me.wax, scored: totals.scored + locked.length });
  for (const id of locked) threads.get(id).scored = true;
  if (locked.length === 1) {
    const t = threads.get(locked[0]);
    t.verdict = honey > 0 ? 'right' : wax > 0 ? 'wrong' : 'flat';
    const verdict =
      honey > 0
        ? `right direction: +${honey} honey`
        : wax > 0
          ? `wrong direction: +${wax} wax`
          : 'no move either way: nothing awarded';
    say(
      `${clock()} scored   ${pct(t.conviction).padStart(6)}  ${clean(locked[0])}  ${clean(t.cell).padEnd(13)} thread locked; ${verdict}`,
    );
  } else {
    const list = locked.map((id) => `${clean(id)} (${pct(threads.get(id).conviction)})`).join(', ');
    say(
      `${clock()} scored   ${locked.length} threads locked at once: ${list}; +${honey} honey, +${wax} wax between them`,
    );
  }
}

async function summary(demo) {
  const { totals } = demo;
  const me = await agentMe(demo);
  if (!me) throw new Error('`agent me` failed at the end');
  const open = totals.posted - totals.scored;
  say('');
  say(`Summary after ${fmtSeconds((Date.now() - started) / 1000)} (${demo.sandboxClock()}):`);
  say(`  posted   ${totals.posted} prediction(s); the service counts ${me.total_comments} for ${clean(me.name)}`);
  say(
    `  skipped  ${totals.skippedLocked + totals.skippedOther} thread(s): ${totals.skippedLocked} already locked when first seen, ${totals.skippedOther} without a clear enough signal`,
  );
  if (totals.failed) say(`  failed   ${totals.failed} (see above)`);
  say(
    `  scored   ${totals.scored} of ${totals.posted} prediction(s) locked and were scored${open ? `; ${open} lock after the demo ends` : ''}`,
  );
  say(`  result   honey ${me.honey}, wax ${me.wax}   (from \`agent me\`)`);
  await recordSummary(demo);
  say('');
}

/**
 * The agent's own record (`agent stats --json`), from the prices it read, next to the sandbox's score: each
 * post against its cell's price 3 hours on. Where the sandbox scored a thread alone, the two are compared.
 */
async function recordSummary(demo) {
  const record = parseJson((await demo.agent(['stats', '--json', '--since', '1d'])).stdout)?.record;
  const entries = parseJson((await demo.agent(['history', '--json', '--limit', '100000'])).stdout)?.entries;
  if (!record || !Array.isArray(entries)) {
    say('  record   (`agent stats` gave no record)');
    return;
  }
  const open = [
    record.pending ? `${record.pending} still waiting for the price 3 h on` : '',
    record.unresolvable ? `${record.unresolvable} without a price near it` : '',
  ].filter(Boolean);
  const hit =
    record.hitRate === null
      ? ''
      : `: hit rate ${(record.hitRate * 100).toFixed(0)}% (95% interval ${(record.hitRateLow * 100).toFixed(0)}-${(record.hitRateHigh * 100).toFixed(0)}%)`;
  say(
    `  record   the agent's own, from the prices it read: ${record.resolved} resolved (${record.right} right, ${record.wrong} wrong, ${record.flat} flat)${hit}${open.length ? `; ${open.join(', ')}` : ''}`,
  );
  // Only a thread that locked alone shows its own score through the interface (the change in honey and wax).
  let compared = 0;
  let agreed = 0;
  for (const entry of entries) {
    const verdict = entry.kind === 'post' ? demo.threads.get(entry.threadId)?.verdict : undefined;
    if (!verdict || verdict === 'flat' || typeof entry.outcome?.right !== 'boolean') continue;
    compared += 1;
    if (entry.outcome.right === (verdict === 'right')) agreed += 1;
  }
  if (compared)
    say(
      `  agree    of the ${compared} of them the sandbox scored alone, the agent's record calls ${agreed === compared ? 'every one' : agreed} the same way`,
    );
  say('  (`agent stats` shows this record after a while of cron polls; `agent history` each post with its move)');
}

async function agentMe(demo) {
  const result = await demo.agent(['me', '--json']);
  const me = parseJson(result.stdout);
  return result.code === 0 && me && typeof me.honey === 'number' ? me : undefined;
}

function settings() {
  const options = {
    seconds: { type: 'string' },
    speed: { type: 'string' },
    'poll-every': { type: 'string' },
    seed: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  };
  const { values } = parseArgs({ options });
  if (values.help) {
    say('Usage: npm start [-- --seconds <n>] [--speed <x>] [--poll-every <s>] [--seed <n>]');
    say('  or the env vars DEMO_SECONDS (default 60), DEMO_SPEED (240), DEMO_POLL_SECONDS (5), DEMO_SEED (1).');
    return undefined;
  }
  const number = (raw, fallback, name, min, max) => {
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min || n > max)
      throw new Error(`--${name} must be a number from ${min} to ${max} (got ${JSON.stringify(raw)})`);
    return n;
  };
  const env = process.env;
  return {
    seconds: number(values.seconds ?? env.DEMO_SECONDS, 60, 'seconds', 1, 3600),
    speed: number(values.speed ?? env.DEMO_SPEED, 240, 'speed', 1, 100_000),
    pollEvery: number(values['poll-every'] ?? env.DEMO_POLL_SECONDS, 5, 'poll-every', 1, 600),
    seed: Math.trunc(number(values.seed ?? env.DEMO_SEED, 1, 'seed', 0, 2 ** 32 - 1)),
  };
}

/** Stops the sandbox and any run of the agent, then removes the temporary dir; once, however it is reached. */
function cleanup() {
  run.cleaning ??= (async () => {
    run.stopping = true;
    await stopAll(run.sandbox);
    if (run.sandbox) say(`Sandbox stopped (pid ${run.sandbox.child.pid}).`);
    if (run.tmp) {
      // After every child has exited: a run still going could otherwise write its state file again.
      try {
        fs.rmSync(run.tmp, { recursive: true, force: true });
        say(`Removed ${run.tmp}: nothing is left behind.`);
      } catch (error) {
        // The demo itself is over; what is left is the user's to remove, so say where and why, once.
        console.error(`demo: could not remove ${run.tmp} (${error.code ?? error.message}): remove it by hand`);
        return false;
      }
    }
    return true;
  })();
  return run.cleaning;
}

async function interrupt(signal, code) {
  if (run.cleaning) return;
  say('');
  say(`Interrupted (${signal}): cleaning up…`);
  const removed = await cleanup();
  process.exit(removed ? code : 1);
}

/** What went wrong in a run of the agent: its JSON error's message, or its stderr. */
function problem(result) {
  return clip(
    parseJson(result.stdout)?.error?.message ?? (result.stderr.trim() || `exit ${result.code}, nothing printed`),
    200,
  );
}

// Text from the service is shown without its control characters (docs/cli.md: output).
function clean(text) {
  return String(text).replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ');
}

/** One line of at most `max` characters, cut at a word when there is one near the end. */
function clip(text, max) {
  const line = clean(text).replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.7 ? cut.slice(0, space) : cut}…`;
}

/** Seconds as a duration the agent reads (`30m`, `12h`, `7d`: at most 5 digits), rounded up. */
function durationOf(seconds) {
  for (const [unit, size] of [
    ['m', 60],
    ['h', 3600],
    ['d', 86_400],
  ]) {
    const n = Math.ceil(seconds / size);
    if (n < 100_000) return `${n}${unit}`;
  }
  throw new Error(`cannot start the sandbox ${seconds} s back`);
}

const pct = (n) => `${n > 0 ? '+' : ''}${Number(n).toFixed(1)}%`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const clock = () => `[${fmtClock((Date.now() - started) / 1000)}]`;
const fmtSeconds = (s) => (s < 90 ? `${Math.round(s)} s` : `${(s / 60).toFixed(1)} min`);
const fmtClock = (s) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;
const fmtHours = (h) => `${Math.floor(h)}h${String(Math.floor((h % 1) * 60)).padStart(2, '0')}m`;

// Last, once every helper above is defined.
main().then(
  async () => {
    if (!run.tmp) return; // --help
    if (!(await cleanup())) process.exitCode = 1;
    say('');
    say('To run an agent for real: `agent register` once, then a crontab line that runs `agent poll` every 5 minutes.');
  },
  async (error) => {
    if (run.stopping) return; // interrupt() is finishing the job
    console.error(`demo: ${error instanceof Error ? error.message : String(error)}`);
    await cleanup();
    process.exitCode = 1;
  },
);
