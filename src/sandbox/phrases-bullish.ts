// Bullish pieces: events that, read well, point to a higher price in the next hours.
import { DAYS, EXCHANGES, alts, chains, coins, defi, level, usdM, withEtf } from './phrases.js';
import type { Template } from './phrases.js';

export const BULLISH: readonly Template[] = [
  {
    strength: 0.7,
    fits: withEtf,
    write: ({ market: m, rng }) => {
      const flow = usdM(rng, 120, 950);
      return {
        sentence: `Spot ${m.etf} ETFs took in $${flow}M of net inflows yesterday, the ${rng.pick(['third', 'fourth', 'fifth', 'sixth'])} straight day of inflows.`,
        headline: `${m.etf} ETFs extend inflow streak with $${flow}M`,
        source: 'news',
      };
    },
  },
  {
    strength: 0.6,
    write: (ctx) => {
      const m = ctx.market,
        flow = usdM(ctx.rng, 40, 600),
        ex = ctx.rng.pick(EXCHANGES);
      return {
        sentence: `A whale withdrew ${coins(ctx, flow)} ${m.ticker} (~$${flow}M) from ${ex} to a cold wallet; exchange reserves keep falling.`,
        headline: `${coins(ctx, flow)} ${m.ticker} withdrawn from ${ex}`,
        source: 'onchain',
      };
    },
  },
  {
    strength: 0.5,
    write: (ctx) => {
      const flow = usdM(ctx.rng, 80, 700);
      return {
        sentence: `Exchange outflows dominate: ${coins(ctx, flow)} ${ctx.market.ticker} left exchanges in 24h, the largest net outflow in ${ctx.rng.int(3, 11)} weeks.`,
        headline: `${ctx.market.ticker} exchange netflow turns sharply negative`,
        source: 'onchain',
      };
    },
  },
  {
    strength: 0.6,
    write: (ctx) => ({
      sentence: `${ctx.market.name} breaks above the ${level(ctx, -0.4)} resistance on rising volume; next target ${level(ctx, 3.5)}.`,
      headline: `${ctx.market.name} clears ${level(ctx, -0.4)} resistance`,
      source: 'chart',
    }),
  },
  {
    strength: 0.5,
    write: (ctx) => ({
      sentence: `${ctx.market.name} bounced off ${level(ctx, -1.8)} support and the 4h RSI is recovering from oversold (${ctx.rng.int(22, 31)}).`,
      headline: `${ctx.market.symbol} holds support, RSI leaves oversold`,
      source: 'chart',
    }),
  },
  {
    strength: 0.5,
    write: ({ market: m, rng }) => {
      const size = usdM(rng, 30, 400);
      return {
        sentence: `$${size}M of ${m.ticker} shorts were liquidated in the past hour as price squeezed higher.`,
        headline: `${m.ticker} short squeeze wipes out $${size}M`,
        source: 'news',
      };
    },
  },
  {
    strength: 0.7,
    write: () => ({
      sentence: 'The Fed cut rates by 25 bp and signalled further easing; risk assets are rallying.',
      headline: 'Fed cuts rates, signals more easing',
      source: 'macro',
    }),
  },
  {
    strength: 0.5,
    write: ({ rng }) => {
      const cpi = (rng.int(21, 27) / 10).toFixed(1);
      return {
        sentence: `US CPI came in cooler than expected at ${cpi}% YoY, raising the odds of a rate cut next meeting.`,
        headline: `CPI cools to ${cpi}%`,
        source: 'macro',
      };
    },
  },
  {
    strength: 0.8,
    fits: alts,
    write: ({ market: m, rng }) => {
      const ex = rng.pick(EXCHANGES);
      return {
        sentence: `${ex} announced a ${m.ticker} spot listing with USDT and USDC pairs; trading opens ${rng.pick(DAYS)}.`,
        headline: `${ex} will list ${m.name} (${m.ticker})`,
        source: 'news',
      };
    },
  },
  {
    strength: 0.5,
    fits: chains,
    write: ({ market: m, rng }) => ({
      sentence: `The ${m.name} network upgrade went live without issues and average fees are down ${rng.int(15, 60)}%.`,
      headline: `${m.name} upgrade activates on mainnet`,
      source: 'news',
    }),
  },
  {
    strength: 0.4,
    write: ({ market: m, rng }) => {
      const ex = rng.pick(EXCHANGES);
      return {
        sentence: `${ex} says ${m.ticker} withdrawals are no longer halted after the wallet maintenance.`,
        headline: `${ex} resumes ${m.ticker} withdrawals`,
        source: 'news',
      };
    },
  },
  {
    strength: 0.3,
    write: ({ market: m, rng }) => ({
      sentence: `The Fear & Greed index jumped to ${rng.int(66, 84)} (greed) and social volume for ${m.ticker} is at a three-month high.`,
      headline: `Sentiment flips to greed as ${m.ticker} chatter surges`,
      source: 'news',
    }),
  },
  {
    strength: 0.4,
    fits: defi,
    write: ({ market: m, rng }) => {
      const tvl = (rng.int(12, 95) / 10).toFixed(1);
      return {
        sentence: `TVL on ${m.name} climbed ${rng.int(8, 25)}% this week to $${tvl}B as new lending markets launched.`,
        headline: `${m.name} TVL hits $${tvl}B`,
        source: 'onchain',
      };
    },
  },
  {
    strength: 0.6,
    fits: alts,
    write: ({ market: m }) => ({
      sentence: `A US court ruled in favour of the ${m.name} ecosystem in the long-running securities case; analysts call it a clear win.`,
      headline: `Court win for ${m.name} in securities case`,
      source: 'news',
    }),
  },
  {
    strength: 0.3,
    write: (ctx) => ({
      sentence: `Funding on ${ctx.market.ticker} perps flipped negative while the price holds steady: shorts look crowded.`,
      headline: `${ctx.market.ticker} funding negative as price holds`,
      source: 'chart',
    }),
  },
];
