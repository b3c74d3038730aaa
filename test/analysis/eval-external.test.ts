import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadExternal, parseCsv } from '../../scripts/eval/external.js';
import { precisionAtMix } from '../../scripts/eval/run.js';

// `npm run eval -- --external <file>` reads labelled text from outside the project: a `text,label` CSV as
// the finance-news tweets come (CRLF, quoted fields, 0 bearish / 1 bullish / 2 neutral) or JSON lines.
// The rows here are made up.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-eval-external-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(name: string, body: string): string {
  const at = path.join(dir, name);
  fs.writeFileSync(at, body);
  return at;
}

describe('the external file reader', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, CRLF or LF', () => {
    expect(parseCsv('text,label\r\n"a, b ""c""\r\nd",1\r\nplain,0\n')).toEqual([
      ['text', 'label'],
      ['a, b "c"\r\nd', '1'],
      ['plain', '0'],
    ]);
  });

  it('maps 0 / 1 / 2 to down / up / none and keeps the text as written', () => {
    const at = file(
      'tweets.csv',
      'text,label\r\n"Coin X slides, traders say",0\r\nCoin Y jumps,1\r\nCoin Z flat,2\r\n',
    );
    expect(loadExternal(at).map((e) => [e.label, e.text, e.split])).toEqual([
      ['down', 'Coin X slides, traders say', 'external'],
      ['up', 'Coin Y jumps', 'external'],
      ['none', 'Coin Z flat', 'external'],
    ]);
  });

  it('reads JSON lines labelled up, down or none', () => {
    const at = file(
      'set.jsonl',
      '{"text":"Coin X slides","label":"down","reason":"a fall"}\n\n{"text":"gm","label":"none"}\n',
    );
    expect(loadExternal(at).map((e) => [e.label, e.text])).toEqual([
      ['down', 'Coin X slides'],
      ['none', 'gm'],
    ]);
  });

  it('refuses a file whose labels or columns it does not know, rather than guess', () => {
    expect(() => loadExternal(file('bad-label.csv', 'text,label\nCoin X,bullish\n'))).toThrow(/record 1/);
    expect(() => loadExternal(file('no-header.csv', 'Coin X,0\n'))).toThrow(/text and label/);
    expect(() => loadExternal(file('bad.jsonl', '{"text":"Coin X","label":"bullish"}\n'))).toThrow(/label bullish/);
  });
});

describe('precision at another mix of texts', () => {
  it('weighs posts on neutral texts by the share of neutral texts asked for', () => {
    // 100 directional texts: 40 right posts, 2 wrong; 200 neutral: 10 posts (5%).
    const s = {
      texts: 300,
      directional: 100,
      neutral: 200,
      postedDirectional: 42,
      posts: 52,
      right: 40,
      wrongSign: 2,
      neutralPosts: 10,
    };
    expect(precisionAtMix(s, 2 / 3)).toBeCloseTo(40 / 52, 6);
    // One neutral text in three: per 300 texts, 200 directional give 80 right and 4 wrong, 100 neutral 5 posts.
    expect(precisionAtMix(s, 1 / 3)).toBeCloseTo(80 / 89, 6);
  });
});
