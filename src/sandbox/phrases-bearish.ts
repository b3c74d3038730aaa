// Bearish pieces: the events generic sentiment lists miss (unlocks, hacks, whales moving coins to
// exchanges, delistings, halted withdrawals) as well as the obvious ones.
import { DAYS, EXCHANGES, PROTOCOLS, alts, bitcoin, chains, coins, level, usdM, withEtf } from './phrases.js';
import type { Template } from './phrases.js';

export const BEARISH: readonly Template[] = [
  {
    strength: 0.7,
    fits: withEtf,
    write: ({ market: m, rng }) => {
      const flow = usdM(rng, 120, 900);
      return {
        sentence: `Spot ${m.etf} ETFs saw $${flow}M of net outflows yesterday, led by redemptions at the two largest funds.`,
        headline: `${m.etf} ETF outflows hit $${flow}M`,
        source: 'news',
      };
    },
  },
  {
    strength: 0.7,
    write: (ctx) => {
      const m = ctx.market,
        flow = usdM(ctx.rng, 40, 650),
        ex = ctx.rng.pick(EXCHANGES);
      return {
        sentence: `Whale transfers ${coins(ctx, flow)} ${m.ticker} (~$${flow}M) to ${ex}; the wallet had been dormant for ${ctx.rng.int(2, 9)} years.`,
        headline: `Dormant whale moves ${coins(ctx, flow)} ${m.ticker} to ${ex}`,
        source: 'onchain',
      };
    },
  },
  {
    strength: 0.5,
    write: (ctx) => ({
      sentence: `Exchange inflows of ${ctx.market.ticker} are rising: ${coins(ctx, usdM(ctx.rng, 90, 500))} ${ctx.market.ticker} deposited in the last 12 hours.`,
      headline: `${ctx.market.ticker} exchange inflows climb`,
      source: 'onchain',
    }),
  },
  {
    strength: 0.6,
    write: (ctx) => ({
      sentence: `${ctx.market.name} lost the ${level(ctx, 0.5)} support on the 4h close; sellers are eyeing ${level(ctx, -3.5)}.`,
      headline: `${ctx.market.name} breaks below ${level(ctx, 0.5)} support`,
      source: 'chart',
    }),
  },
  {
    strength: 0.5,
    write: (ctx) => ({
      sentence: `${ctx.market.name} was rejected at ${level(ctx, 1.6)} resistance with the daily RSI at ${ctx.rng.int(72, 84)}, overbought with a bearish divergence.`,
      headline: `${ctx.market.symbol} rejected at resistance, RSI overbought`,
      source: 'chart',
    }),
  },
  {
    strength: 0.5,
    write: ({ market: m, rng }) => {
      const size = usdM(rng, 40, 600);
      return {
        sentence: `$${size}M of ${m.ticker} longs were liquidated as the price slid through the overnight lows.`,
        headline: `${m.ticker} long liquidations top $${size}M`,
        source: 'news',
      };
    },
  },
  {
    strength: 0.6,
    write: () => ({
      sentence: 'The Fed held rates and signalled fewer cuts this year; the dollar index jumped.',
      headline: 'Hawkish Fed hold lifts the dollar',
      source: 'macro',
    }),
  },
  {
    strength: 0.5,
    write: ({ rng }) => {
      const cpi = (rng.int(31, 38) / 10).toFixed(1);
      return {
        sentence: `US CPI came in hotter than expected at ${cpi}% YoY; traders priced out a near-term rate cut.`,
        headline: `Hot CPI print at ${cpi}%`,
        source: 'macro',
      };
    },
  },
  {
    strength: 0.7,
    fits: alts,
    write: (ctx) => {
      const m = ctx.market,
        pct = (ctx.rng.int(15, 60) / 10).toFixed(1),
        value = usdM(ctx.rng, 20, 400);
      return {
        sentence: `${m.name} faces a token unlock of ${pct}% of supply (~$${value}M) on ${ctx.rng.pick(DAYS)}, mostly to early investors.`,
        headline: `${m.ticker} token unlock: $${value}M hits the market`,
        source: 'news',
      };
    },
  },
  {
    strength: 0.9,
    fits: chains,
    write: ({ market: m, rng }) => {
      const protocol = rng.pick(PROTOCOLS),
        loss = usdM(rng, 8, 180);
      return {
        sentence: `${protocol} on ${m.name} was exploited for $${loss}M; the attacker is swapping the stolen funds to ${m.ticker} and bridging out.`,
        headline: `${protocol} hack drains $${loss}M`,
        source: 'news',
      };
    },
  },
  {
    strength: 0.7,
    fits: alts,
    write: ({ market: m, rng }) => {
      const ex = rng.pick(EXCHANGES);
      return {
        sentence: `${ex} will delist ${m.ticker} spot pairs on ${rng.pick(DAYS)} after its periodic review.`,
        headline: `${ex} to delist ${m.ticker}`,
        source: 'news',
      };
    },
  },
  {
    strength: 0.6,
    write: ({ market: m, rng }) => {
      const ex = rng.pick(EXCHANGES);
      return {
        sentence: `${ex} halted ${m.ticker} withdrawals citing a node issue; no timeline for a fix yet.`,
        headline: `${ex} halts ${m.ticker} withdrawals`,
        source: 'news',
      };
    },
  },
  {
    strength: 0.6,
    write: ({ market: m, rng }) => {
      const ex = rng.pick(EXCHANGES);
      return {
        sentence: `The SEC filed a lawsuit against ${ex} over unregistered ${m.ticker} staking products.`,
        headline: `SEC sues ${ex} over ${m.ticker} staking`,
        source: 'news',
      };
    },
  },
  {
    strength: 0.3,
    write: (ctx) => ({
      sentence: `Analysts say the ${ctx.market.symbol} setup is not bullish until it reclaims ${level(ctx, 2.2)}.`,
      headline: `Why ${ctx.market.symbol} is not out of the woods yet`,
      source: 'chart',
    }),
  },
  {
    strength: 0.4,
    fits: bitcoin,
    write: (ctx) => {
      const qty = coins(ctx, usdM(ctx.rng, 60, 300));
      return {
        sentence: `Miners sent ${qty} BTC to exchanges today, the most in ${ctx.rng.int(2, 8)} months.`,
        headline: `Miner deposits to exchanges spike`,
        source: 'onchain',
      };
    },
  },
];
