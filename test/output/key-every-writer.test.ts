import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { alertEvent } from '../../src/alert/event.js';
import { runHistory } from '../../src/commands/history/run.js';
import { runList } from '../../src/commands/list/run.js';
import { KeyForms } from '../../src/domain/key-forms.js';
import { TemporaryError } from '../../src/errors.js';
import { errorBodyText } from '../../src/http/error-body.js';
import { readHistory } from '../../src/history/log.js';
import { maskStrings } from '../../src/history/mask.js';
import { recordRun } from '../../src/history/record-run.js';
import { reportError } from '../../src/output/report-error.js';
import { outcomesFile } from '../../src/record/outcomes.js';
import { readAllLines } from '../../src/record/private-lines.js';
import { PriceRecorder } from '../../src/record/recorder.js';
import { pricesFile } from '../../src/record/samples.js';
import { settleRecord } from '../../src/record/settle.js';
import { threadsFile } from '../../src/record/thread-texts.js';
import { onlineContext, registeredDir } from '../support/in-process.js';
import { DISGUISES, filler } from '../support/key-disguises.js';
import { holdsAnyKey } from '../support/key-scan.js';
import { thread } from '../support/threads.js';

// Proof by construction of key-never-shown: every form of the key (support/key-disguises.ts), in text of
// lengths that put a 200-character cut inside it, through every writer of text; none holds a piece of
// it afterwards, by the same rule that finds it (KeyForms).

const KEY = 'hive_Q7xk2Lm9PzR4tVb8Nc3Wd6Yh1Js5Fg0aEr';
const forms = new KeyForms(KEY);
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-key-writers-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const cases = Object.entries(DISGUISES).flatMap(([name, disguise]) =>
  [0, 166, 190].map((before) => ({ name, before, text: `${filler(before)}${disguise(KEY)}${filler(40)}` })),
);
let serial = 0;

function agentWith(agentName = 'plain') {
  const { dir } = registeredDir(path.join(root, `agent-${serial++}`), { apiKey: KEY, agentName });
  return dir;
}

describe.each(cases)('the key $name after $before characters', ({ text }) => {
  it('is in no line shown, human or --json, however cut', async () => {
    for (const json of [false, true]) {
      const { ctx, stdout, stderr, run } = onlineContext(agentWith(), undefined, { json });
      ctx.output.addSecret(KEY);
      // A service's error body as the client makes it a message: cut to 200 characters first.
      const said = errorBodyText(JSON.stringify({ message: text }), 'application/json');
      ctx.output.warn(text);
      ctx.output.result(text, { text });
      await run(async () => reportError(new TemporaryError(said), ctx.output));
      expect(forms.foundIn(stdout.text + stderr.text)).toBe(false);
    }
  });

  it('is in no line of history.jsonl, nor in history --json', async () => {
    const dir = agentWith();
    const { ctx, stdout, run } = onlineContext(dir, undefined, { json: true });
    ctx.output.addSecret(KEY);
    const cut = errorBodyText(text);
    recordRun(ctx, [{ ts: new Date().toISOString(), kind: 'skip', threadId: text, cell: text, reason: cut, text }]);
    expect(readHistory(dir).records).toHaveLength(1);
    expect(holdsAnyKey([KEY], fs.readFileSync(path.join(dir, 'history.jsonl'), 'utf8'))).toBe(false);
    const fresh = onlineContext(dir, undefined, { json: true });
    await fresh.run(() => runHistory(fresh.ctx, {}));
    expect(holdsAnyKey([KEY], fresh.stdout.text)).toBe(false);
    await run(async () => undefined);
    expect(stdout.text).toBe('');
  });

  it('is in no line of prices.jsonl, threads.jsonl or outcomes.jsonl, in any field', () => {
    const dir = agentWith();
    const { ctx } = onlineContext(dir, undefined);
    ctx.output.addSecret(KEY);
    const redact = (line: string) => ctx.output.redact(line);
    const t0 = Date.parse('2026-11-01T00:00:00.000Z');
    const at = (hours: number) => new Date(t0 + hours * 3_600_000).toISOString();
    // Every field a service sends holds it: the decided thread, and a later one whose price tells its move.
    const keyed = (id: string, hours: number) =>
      thread(`${id}${text}`, at(hours), {
        cell: text,
        projectId: `c/${text}`,
        text,
        priceOnFetch: 100 + hours,
        citations: [{ url: `https://x.test/${text}`, title: text }],
      });
    const warnings: string[] = [];
    new PriceRecorder({ dir, now: () => t0 + 4 * 3_600_000, redact, warn: (w) => warnings.push(w) }).page([
      keyed('a', 0),
      keyed('b', 3),
    ]);
    recordRun(ctx, [{ ts: at(0), kind: 'skip', threadId: `a${text}`, cell: text, reason: 'quiet' }]);
    const settled = settleRecord({ dir, now: t0 + 4 * 3_600_000, redact });
    expect(warnings).toEqual([]);
    expect(settled).toHaveLength(1);
    for (const file of [pricesFile(dir), threadsFile(dir), outcomesFile(dir)]) {
      const lines = readAllLines(file);
      expect(lines.length, file.current).toBeGreaterThan(0);
      expect(holdsAnyKey([KEY], lines.join('\n')), file.current).toBe(false);
    }
  });

  it('is in no alert event, as the webhook and the command are sent it', () => {
    const { ctx } = onlineContext(agentWith(), undefined);
    ctx.output.addSecret(KEY);
    const event = alertEvent({
      kind: 'failing',
      agent: text,
      configDir: '/x',
      since: text,
      detail: errorBodyText(text),
      hint: text,
    });
    const sent = JSON.stringify(maskStrings(event, (line) => ctx.output.redact(line)));
    expect(forms.foundIn(sent)).toBe(false);
  });

  it('is in no row of list, plain or --json', async () => {
    const dir = agentWith(text);
    for (const json of [false, true]) {
      const { ctx, stdout, stderr, run } = onlineContext(dir, undefined, { json, verbose: true });
      await run(() => runList(ctx));
      expect(forms.foundIn(stdout.text + stderr.text)).toBe(false);
    }
  });
});
