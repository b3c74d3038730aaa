import { isValidText } from '../../analysis/summary-text.js';
import { UsageError } from '../../errors.js';
import { oneLine } from '../../output/sanitize.js';

/** The size and text a person gives `predict` instead of the analyzer's decision. */
export interface OwnValues {
  conviction: number;
  text: string | undefined;
}

export function parseOwnValues(options: {
  conviction?: string | undefined;
  text?: string | undefined;
}): OwnValues | undefined {
  if (options.conviction === undefined) {
    if (options.text !== undefined) throw new UsageError('--text needs --conviction', { hint: 'nothing was sent' });
    return undefined;
  }
  const conviction = parseConviction(options.conviction);
  if (options.text !== undefined && !isValidText(options.text)) {
    const n = Array.from(options.text).length;
    throw new UsageError(`--text must be 20-300 characters (got ${n})`, { hint: 'nothing was sent' });
  }
  return { conviction, text: options.text };
}

/** A plain decimal with an optional sign and `%`: what a person types for "1.5 %". */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d+)?|\.\d+)%?$/;
/** A 3-hour move beyond this is not a prediction but a typo; the service may refuse far less. */
export const MAX_CONVICTION = 1000;

/**
 * The user's conviction, one decimal. Only plain decimals: Number() also reads hex, exponents and
 * "Infinity", and `0x10` once became +16.0. A price cannot fall 100 % or more.
 */
export function parseConviction(raw: string): number {
  const text = raw.trim();
  const shown = JSON.stringify(oneLine(raw, 40));
  if (!DECIMAL.test(text)) {
    throw new UsageError(
      `--conviction must be a decimal number, the predicted % change over 3 h, e.g. 1.5, -2 or 0.7% (got ${shown})`,
      { hint: 'nothing was sent' },
    );
  }
  // Halves away from zero, so that a size and its opposite round alike.
  const value = Number(text.replace('%', ''));
  const conviction = (Math.sign(value) * Math.round(Math.abs(value) * 10)) / 10 || 0;
  if (conviction === 0) {
    throw new UsageError('--conviction rounds to 0.0, which predicts no direction', {
      hint: 'give at least ±0.1; nothing was sent',
    });
  }
  if (conviction <= -100)
    throw new UsageError(
      `--conviction ${conviction} would be a price falling ${-conviction} %: a price cannot fall 100 % or more`,
      { hint: 'nothing was sent' },
    );
  if (conviction > MAX_CONVICTION)
    throw new UsageError(`--conviction ${conviction} is beyond ${MAX_CONVICTION} %, not a 3-hour move`, {
      hint: 'nothing was sent',
    });
  return conviction;
}
