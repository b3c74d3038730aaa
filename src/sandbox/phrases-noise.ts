// Pieces that say nothing about the next three hours: an honest analyzer skips them.
import { DAYS, chains, level, usd, usdM } from './phrases.js';
import type { Template } from './phrases.js';

export const NOISE: readonly Template[] = [
  {
    strength: 0,
    fits: chains,
    write: ({ market: m, rng }) => ({
      sentence: `The ${m.name} community hosts an AMA on ${rng.pick(DAYS)}; no roadmap changes are expected.`,
      headline: `${m.name} community AMA announced`,
      source: 'news',
    }),
  },
  {
    strength: 0,
    write: (ctx) => ({
      sentence: `${ctx.market.symbol} trades flat around ${level(ctx, 0)} as volume thins out.`,
      headline: `${ctx.market.symbol} range-bound on thin volume`,
      source: 'chart',
    }),
  },
  {
    strength: 0,
    fits: chains,
    write: ({ market: m, rng }) => ({
      sentence: `${m.name} core developers will speak at ${rng.pick(['Token2049', 'Consensus', 'Permissionless', 'Devconnect'])} next month.`,
      headline: `${m.name} devs on the conference lineup`,
      source: 'news',
    }),
  },
  {
    strength: 0,
    write: ({ market: m }) => ({
      sentence: `Open interest in ${m.ticker} futures is unchanged on the day and funding sits at a neutral 0.01%.`,
      headline: `${m.ticker} derivatives quiet`,
      source: 'chart',
    }),
  },
  {
    strength: 0,
    fits: chains,
    write: (ctx) => ({
      sentence: `${usd(usdM(ctx.rng, 200, 2500))} of ${ctx.market.ticker} options expire on Friday, with max pain near ${level(ctx, 0.3)}.`,
      headline: `${ctx.market.ticker} options expiry preview`,
      source: 'news',
    }),
  },
  {
    strength: 0,
    fits: chains,
    write: ({ market: m, rng }) => ({
      sentence: `A new ${m.name} block explorer redesign shipped; the team says the change is cosmetic.`,
      headline: `${m.name} explorer gets a facelift (${rng.int(2, 4)} min read)`,
      source: 'news',
    }),
  },
  {
    strength: 0,
    write: ({ market: m, rng }) => ({
      sentence: `Poll: ${rng.int(40, 60)}% of respondents expect ${m.ticker} to end the month higher; the rest expect lower.`,
      headline: `Community poll split on ${m.ticker}`,
      source: 'news',
    }),
  },
];
