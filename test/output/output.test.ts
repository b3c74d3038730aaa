import { describe, expect, it } from 'vitest';
import { maskKey } from '../../src/output/sanitize.js';
import { makeOutput } from '../support/streams.js';

const KEY = 'hive_0123456789abcdefSECRETKEY';

describe('Output: where each kind of message goes', () => {
  type Mode = { json?: boolean; quiet?: boolean; verbose?: boolean; stderrTTY?: boolean };
  const cases: Array<[what: string, mode: Mode, shown: { progress: boolean; detail: boolean; warn: boolean }]> = [
    ['cron (no TTY)', {}, { progress: false, detail: false, warn: true }],
    ['a terminal', { stderrTTY: true }, { progress: true, detail: false, warn: true }],
    ['--verbose under cron', { verbose: true }, { progress: true, detail: true, warn: true }],
    ['--quiet on a terminal', { quiet: true, stderrTTY: true }, { progress: false, detail: false, warn: false }],
    ['--quiet --verbose', { quiet: true, verbose: true }, { progress: false, detail: false, warn: false }],
    ['--json on a terminal', { json: true, stderrTTY: true }, { progress: false, detail: false, warn: true }],
  ];

  it.each(cases)('%s', (_what, mode, shown) => {
    const { output, stdout, stderr } = makeOutput(mode);
    output.progress('P');
    output.detail('D');
    output.warn('W');
    output.error('E');
    const expected = [shown.progress && 'P', shown.detail && 'D', shown.warn && 'W', 'E']
      .filter(Boolean)
      .map((line) => `${line}\n`)
      .join('');
    expect(stderr.text).toBe(expected);
    expect(stdout.text).toBe('');
  });

  it('is interactive only on a terminal without --json or --quiet', () => {
    expect(makeOutput({ stderrTTY: true }).output.interactive).toBe(true);
    expect(makeOutput({}).output.interactive).toBe(false);
    expect(makeOutput({ stderrTTY: true, json: true }).output.interactive).toBe(false);
    expect(makeOutput({ stderrTTY: true, quiet: true }).output.interactive).toBe(false);
  });

  it('without a terminal the spinner does nothing and prints nothing', async () => {
    const { output, stdout, stderr } = makeOutput({ verbose: true });
    const spinner = await output.spinner('working');
    spinner.update('still');
    spinner.stop();
    expect(stdout.text + stderr.text).toBe('');
  });

  // ora's line counting divides by the width: a pty nobody sized (columns 0, as under `script`) made it
  // erase lines forever at full CPU, and the command never ended.
  it('on a terminal of unknown width there is no spinner', async () => {
    const { output, stderr } = makeOutput({ stderrTTY: true });
    Object.assign(stderr, { columns: 0 });
    const spinner = await output.spinner('working');
    spinner.update('still');
    spinner.stop();
    expect(stderr.text).toBe('');
  });

  it('on a terminal of known width the spinner draws, and stops cleanly', async () => {
    const { output, stderr } = makeOutput({ stderrTTY: true });
    Object.assign(stderr, { columns: 80, cursorTo() {}, clearLine() {}, moveCursor() {} });
    const spinner = await output.spinner('working');
    spinner.stop();
    expect(stderr.text).toContain('working');
  });
});

describe('statusLine: one line redrawn in place (a progress bar)', () => {
  it('on a terminal: \\r, the sanitised text, erase to the end of the line; undefined erases it', () => {
    const { output, stdout, stderr } = makeOutput({ stderrTTY: true });
    output.statusLine('step 1');
    output.statusLine('step 2 \u001b[31mred');
    output.statusLine(undefined);
    expect(stderr.text).toBe('\rstep 1\u001b[K\rstep 2 red\u001b[K\r\u001b[K');
    expect(stdout.text).toBe('');
  });

  it('with --json on a terminal too: it never reaches stdout', () => {
    const { output, stdout, stderr } = makeOutput({ json: true, stderrTTY: true });
    output.statusLine('half');
    expect(stderr.text).toBe('\rhalf\u001b[K');
    expect(stdout.text).toBe('');
  });

  it.each([
    ['without a terminal', {}],
    ['without a terminal, with --verbose', { verbose: true }],
    ['with --quiet on a terminal', { quiet: true, stderrTTY: true }],
  ])('prints nothing %s', (_what, mode) => {
    const { output, stdout, stderr } = makeOutput(mode);
    output.statusLine('x');
    output.statusLine(undefined);
    expect(stdout.text + stderr.text).toBe('');
  });
});

describe('results', () => {
  it('human lines on stdout, sanitised', () => {
    const { output, stdout, stderr } = makeOutput();
    output.result(['one \u001b[31mred\u001b[0m', 'two\u0007'], { ignored: true });
    expect(stdout.text).toBe('one red\ntwo\n');
    expect(stderr.text).toBe('');
  });

  it('no lines print nothing', () => {
    const { output, stdout } = makeOutput();
    output.result([], {});
    expect(stdout.text).toBe('');
  });

  it('--json prints exactly one parseable document, escapes included as JSON escapes', () => {
    const { output, stdout } = makeOutput({ json: true });
    const value = { text: 'a\u001b[31mb\nc', n: 1.5, list: [null] };
    output.result(['ignored'], value);
    expect(JSON.parse(stdout.text)).toEqual(value);
    expect(stdout.text).not.toContain('\u001b');
    expect(
      stdout.text
        .trimEnd()
        .split('\n')
        .filter((line) => line === '}'),
    ).toHaveLength(1);
  });

  it.each([
    ['8-bit CSI', 'a\u009b2Jb'],
    ['8-bit OSC', '\u009d0;title\u0007'],
    ['DEL and NEL', 'a\u007fb\u0085c'],
    ['bidi override', 'abc\u202edef'],
    ['zero-width joiner', 'a\u200db'],
  ])('--json escapes what JSON.stringify leaves raw (%s), losslessly', (_what, text) => {
    for (const print of ['result', 'jsonDocument'] as const) {
      const { output, stdout } = makeOutput({ json: true });
      if (print === 'result') output.result([], { text });
      else output.jsonDocument({ text });
      expect(stdout.text).not.toMatch(
        /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/,
      );
      expect(JSON.parse(stdout.text)).toEqual({ text });
    }
  });

  it('jsonLines: each document on one line of its own (JSON Lines), still escaped and masked', () => {
    const { output, stdout } = makeOutput({ json: true });
    output.addSecret(KEY);
    output.jsonLines();
    output.result([], { text: 'a\nb\u202e', key: KEY, list: [1, 2] });
    output.jsonDocument({ error: { code: 5, message: 'm' } });
    const lines = stdout.text.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(JSON.parse(lines[0]!)).toEqual({ text: 'a\nb\u202e', key: maskKey(KEY), list: [1, 2] });
    expect(lines[0]).not.toContain('\u202e');
    expect(JSON.parse(lines[1]!)).toEqual({ error: { code: 5, message: 'm' } });
  });

  it('messages on stderr are sanitised', () => {
    const { output, stderr } = makeOutput();
    output.error('bad \u001b]0;title\u0007thing\u009b2J');
    expect(stderr.text).toBe('bad thing\n');
  });
});

describe('redact: a registered secret is shown only masked, in every stream (key-never-shown)', () => {
  it('in result lines, JSON results, JSON documents, progress, detail, warn and error', () => {
    const { output, stdout, stderr } = makeOutput({ verbose: true });
    output.addSecret(KEY);
    output.result(`key ${KEY}`, {});
    output.progress(`progress ${KEY}`);
    output.detail(`detail ${KEY}${KEY}`);
    output.warn(`warn ${KEY}`);
    output.error(`error ${KEY}`);
    output.jsonDocument({ error: { message: `json ${KEY}` } });
    const json = makeOutput({ json: true });
    json.output.addSecret(KEY);
    json.output.result([], { apiKey: KEY });
    for (const text of [stdout.text, stderr.text, json.stdout.text]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain('SECRETKEY');
    }
    // Two keys back to back are one run of the key's pieces: masked as one.
    expect(stderr.text).toContain('detail hive_…TKEY\n');
    expect(json.stdout.text).toContain('"apiKey": "hive_…TKEY"');
  });

  it.each([
    ['a quote and a backslash', 'hive_01234"56789\\abcdef"x\\y'],
    ['a control and a C1 character', 'hive_0123\u0007456789\u009babcdefxyz'],
    ['white space', 'sk-0123 4567\t89abcdefxyz'],
  ])('a key holding %s is masked in every form it is written in, and the JSON stays valid', (_what, key) => {
    const json = makeOutput({ json: true });
    json.output.addSecret(key);
    json.output.result([], { echoed: key, note: `key ${key} twice ${key}` });
    json.output.error(`error ${key}`);
    const human = makeOutput({ verbose: true });
    human.output.addSecret(key);
    human.output.result(`key ${key}`, {});
    human.output.warn(`warn ${key}`);
    const tail = key.slice(-6, -1);
    for (const text of [json.stdout.text, json.stderr.text, human.stdout.text, human.stderr.text]) {
      expect(text).not.toContain(tail);
      expect(text).toContain('…');
    }
    expect(JSON.parse(json.stdout.text).echoed).toMatch(/^(hive_|)…/);
  });

  it('a secret is masked in any case: a service may lower-case what it echoes (a cell name)', () => {
    const { output } = makeOutput();
    output.addSecret(KEY);
    expect(output.redact(`c/${KEY.toLowerCase()} and ${KEY.toUpperCase()}`)).toBe('c/hive_…TKEY and hive_…TKEY');
  });

  it('a secret of any length is masked in any case, and a character whose lower case is longer moves nothing', () => {
    const { output } = makeOutput();
    const long = `hive_${'Kk'.repeat(10_000)}`;
    output.addSecret(long);
    output.addSecret(KEY);
    expect(output.redact(`a ${long.toUpperCase()} b`)).toBe(`a ${maskKey(long)} b`);
    expect(output.redact(`\u0130 ${KEY.toLowerCase()} \u0130`)).toBe('\u0130 hive_…TKEY \u0130');
  });

  it('redact works on any text and ignores secrets too short to be keys', () => {
    const { output } = makeOutput();
    output.addSecret('abc');
    output.addSecret(KEY);
    output.addSecret(KEY);
    expect(output.redact(`abc ${KEY}`)).toBe('abc hive_…TKEY');
  });

  it('a secret seen before it was registered is not redacted retroactively, but everything after is', () => {
    const { output, stderr } = makeOutput();
    output.error('before');
    output.addSecret(KEY);
    output.error(KEY);
    expect(stderr.text).toBe('before\nhive_…TKEY\n');
  });
});

describe('Output.forAgent: one of several agents in one process (poll --watch --all)', () => {
  it("leads each stderr line with the agent, gives each JSON document its config dir, and masks every agent's key", () => {
    const { output, stdout, stderr } = makeOutput({ json: true });
    output.jsonLines();
    const alpha = output.forAgent('alpha', '/home/me/.config/prediction-agent/agents/alpha');
    const beta = output.forAgent('beta', '/srv/beta');
    alpha.addSecret(KEY);
    beta.error(`agent: the service echoed ${KEY}`);
    alpha.result('ignored with --json', { posted: [] });
    beta.jsonDocument({ error: { code: 5, message: 'network down' } });
    output.error('agent: the watcher itself');
    expect(stderr.text).toBe(`[beta] agent: the service echoed ${maskKey(KEY)}\nagent: the watcher itself\n`);
    expect(
      stdout.text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { agent: '/home/me/.config/prediction-agent/agents/alpha', posted: [] },
      { agent: '/srv/beta', error: { code: 5, message: 'network down' } },
    ]);
  });

  it('at a terminal, leads each line of a result (the posts and the summary of a cycle) with the agent too', () => {
    const { output, stdout } = makeOutput({ stdoutTTY: true, stderrTTY: true });
    const alpha = output.forAgent('alpha', '/srv/alpha');
    alpha.result(['posted t1 +1.2%', [{ text: '✓', paint: 'cyan' }, ' 1 posted, 0 skipped']], { ignored: true });
    output.result('the watcher itself', {});
    expect(stdout.text).toBe(
      '[alpha] posted t1 +1.2%\n[alpha] \u001b[36m✓\u001b[39m 1 posted, 0 skipped\nthe watcher itself\n',
    );
  });
});
