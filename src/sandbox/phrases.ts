// The building blocks of signal texts: what a template is, and the helpers templates share. The templates
// themselves (written for this project) are in phrases-bullish.ts, phrases-bearish.ts, phrases-noise.ts;
// texts.ts combines them. Protocol names are invented so that no real project is said to have been hacked.
import { formatLevel } from './markets.js';
import type { Market } from './markets.js';
import type { Rng } from './random.js';

export interface FragmentContext {
  market: Market;
  price: number;
  rng: Rng;
}

export type SourceKind = 'news' | 'onchain' | 'chart' | 'macro';

export interface Fragment {
  sentence: string;
  headline: string;
  source: SourceKind;
}

export interface Template {
  /** How strongly this piece, alone, moves the price, in [0, 1]. */
  strength: number;
  /** Which markets the piece makes sense for (no listings for bitcoin, no hacks of the total market). */
  fits?: (market: Market) => boolean;
  write(ctx: FragmentContext): Fragment;
}

export const EXCHANGES = ['Binance', 'Coinbase', 'Kraken', 'OKX', 'Bybit', 'Bitfinex', 'Upbit'] as const;
export const PROTOCOLS = ['Nimbus Finance', 'Ardent Swap', 'Heliox Lend', 'Quarry DEX', 'Tidepool Bridge'] as const;
export const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'] as const;

export const alts = (m: Market) => m.alt;
export const chains = (m: Market) => m.cell !== 'general';
export const withEtf = (m: Market) => !m.alt || m.cell === 'solana' || m.cell === 'xrp';
export const defi = (m: Market) => ['ethereum', 'solana', 'avalanche', 'arbitrum'].includes(m.cell);
export const bitcoin = (m: Market) => m.cell === 'bitcoin' || m.cell === 'general';

export const usdM = (rng: Rng, min: number, max: number) => rng.int(min, max);
/** "$420M", "$2.3B". */
export const usd = (millions: number) => (millions >= 1000 ? `$${(millions / 1000).toFixed(1)}B` : `$${millions}M`);
/** Coins worth `millions` of dollars; the total market counts its flows in BTC. */
export function coins(ctx: FragmentContext, millions: number): string {
  const unit = ctx.market.cell === 'general' ? 97_000 : ctx.price;
  return Math.round((millions * 1e6) / unit).toLocaleString('en-US');
}
export const level = (ctx: FragmentContext, pctAway: number) => formatLevel(ctx.price * (1 + pctAway / 100));
