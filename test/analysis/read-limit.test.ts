import { describe, expect, it } from 'vitest';
import { READ_LIMIT, readSignal } from '../../src/analysis/builtin.js';
import type { Trace } from '../../src/analysis/types.js';
import { profile, thread } from './fixtures.js';

function read(text: string, titles: string[] = []) {
  const trace: Trace = [];
  const citations = titles.map((title) => ({ title, url: 'https://example.com' }));
  const signal = readSignal(thread(text, { citations }), profile(), trace);
  return { signal, trace };
}

const NEWS = 'Binance halts withdrawals after a $40M exploit on its hot wallet.';
const filler = (chars: number) => 'and the market keeps moving sideways '.repeat(Math.ceil(chars / 37)).slice(0, chars);

describe('the analyzer reads at most READ_LIMIT characters of a thread', () => {
  it('reads news within the limit and says nothing of a cut', () => {
    const { signal, trace } = read(`${NEWS} ${filler(READ_LIMIT - NEWS.length - 10)}`);
    expect(signal.strength).toBeLessThan(0);
    expect(trace.join('\n')).not.toContain('reading the first');
  });

  it('does not read past the limit, and the trace says it cut', () => {
    const { signal, trace } = read(`${filler(READ_LIMIT)} ${NEWS}`);
    expect(signal.strength).toBe(0);
    expect(trace).toContain(
      `builtin: reading the first ${READ_LIMIT} of the thread's ${READ_LIMIT + 1 + NEWS.length} characters`,
    );
  });

  it('counts citation titles in the same limit, after the text', () => {
    expect(read(filler(100), [NEWS]).signal.strength).toBeLessThan(0);
    expect(read(filler(READ_LIMIT), [NEWS]).signal.strength).toBe(0);
  });
});
