// Turns template pieces (phrases-*.ts) into one thread's signal text, its citations and its true direction.
// A feed thread's text is written knowing a little of its cell's next 3 hours (`lean`), as news that moves a
// market would be: reading it well helps, without deciding anything. The direction stays inside the sandbox.
import { BEARISH } from './phrases-bearish.js';
import { BULLISH } from './phrases-bullish.js';
import { NOISE } from './phrases-noise.js';
import type { Fragment, FragmentContext, SourceKind, Template } from './phrases.js';
import type { Market } from './markets.js';
import type { Rng } from './random.js';

export type Stance = 'bullish' | 'bearish' | 'mixed' | 'noise';

export interface Citation {
  url: string;
  title: string;
}

export interface SignalText {
  text: string;
  citations: Citation[];
  stance: Stance;
  /** What the text, read well, implies: +1 up, -1 down, 0 nothing. */
  direction: -1 | 0 | 1;
  /** How much the text should move the price, in [0, 1]. */
  strength: number;
}

const STANCES: readonly { stance: Stance; weight: number }[] = [
  { stance: 'bullish', weight: 30 },
  { stance: 'bearish', weight: 30 },
  { stance: 'mixed', weight: 20 },
  { stance: 'noise', weight: 20 },
];

const CONNECTORS = ['Meanwhile, ', 'At the same time, ', 'On the other hand, ', 'Still, '] as const;
const LOWERABLE = /^(The|A|An|Exchange|Spot|Analysts|Miners|Funding|Open|Poll|Whale)\b/;

/** How much a directional text knows: with the move's z-score z, it reads up with probability Φ(LEAN_WEIGHT · z). */
const LEAN_WEIGHT = 0.9;

/**
 * `lean`: the cell's move over the next 3 hours in multiples of its σ (0: nothing known). A bullish or
 * bearish text agrees with that move's sign about 73% of the time (1/2 + atan(0.9)/π), mixed and noise
 * texts know nothing of it.
 */
export function writeSignal(market: Market, price: number, rng: Rng, timestampMs: number, lean = 0): SignalText {
  const ctx: FragmentContext = { market, price, rng };
  let stance = rng.weighted(STANCES, (s) => s.weight).stance;
  if (stance === 'bullish' || stance === 'bearish')
    stance = rng.next() < normalCdf(LEAN_WEIGHT * lean) ? 'bullish' : 'bearish';
  const cited: Fragment[] = [];
  const sentences: string[] = [];
  let direction: -1 | 0 | 1 = 0;
  let strength = 0;

  if (stance === 'bullish' || stance === 'bearish') {
    const pool = stance === 'bullish' ? BULLISH : BEARISH;
    const [main, support] = pickDistinct(pool, market, rng, rng.chance(0.35) ? 2 : 1);
    for (const template of [main, support]) {
      if (!template) continue;
      const fragment = template.write(ctx);
      sentences.push(fragment.sentence);
      cited.push(fragment);
    }
    direction = stance === 'bullish' ? 1 : -1;
    strength = Math.min(1, (main?.strength ?? 0) + 0.5 * (support?.strength ?? 0));
    if (rng.chance(0.4)) sentences.push(pickDistinct(NOISE, market, rng, 1)[0]?.write(ctx).sentence ?? '');
  } else if (stance === 'mixed') {
    const [bull] = pickDistinct(BULLISH, market, rng, 1);
    const [bear] = pickDistinct(BEARISH, market, rng, 1);
    const parts = rng.chance(0.5) ? [bull, bear] : [bear, bull];
    parts.forEach((template, index) => {
      if (!template) return;
      const fragment = template.write(ctx);
      sentences.push(index === 0 ? fragment.sentence : connect(rng.pick(CONNECTORS), fragment.sentence));
      cited.push(fragment);
    });
    // One side usually wins, but only by a little: mixed texts are weak signals on purpose.
    const balance = (bull?.strength ?? 0) - (bear?.strength ?? 0) + 0.15 * rng.gaussian();
    direction = balance > 0 ? 1 : -1;
    strength = Math.min(0.3, Math.abs(balance));
  } else {
    for (const template of pickDistinct(NOISE, market, rng, rng.chance(0.5) ? 2 : 1)) {
      const fragment = template.write(ctx);
      sentences.push(fragment.sentence);
      if (rng.chance(0.5)) cited.push(fragment);
    }
  }

  const prefix = rng.chance(0.05) ? '🚨 ' : rng.chance(0.12) ? 'JUST IN: ' : '';
  return {
    text: prefix + sentences.filter((s) => s !== '').join(' '),
    citations: cited.map((fragment) => citationFor(fragment, market, rng, timestampMs)),
    stance,
    direction,
    strength: Math.round(strength * 100) / 100,
  };
}

/** Φ, by the Abramowitz-Stegun 7.1.26 erf approximation (error < 1.5e-7): plenty for a coin's bias. */
function normalCdf(x: number): number {
  const t = 1 / (1 + (0.3275911 * Math.abs(x)) / Math.SQRT2);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-(x * x) / 2);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

function pickDistinct(pool: readonly Template[], market: Market, rng: Rng, count: number): Template[] {
  const candidates = pool.filter((template) => template.fits?.(market) ?? true);
  const picked: Template[] = [];
  while (picked.length < count && picked.length < candidates.length) {
    const template = rng.pick(candidates);
    if (!picked.includes(template)) picked.push(template);
  }
  return picked;
}

function connect(connector: string, sentence: string): string {
  const body = LOWERABLE.test(sentence) ? sentence.charAt(0).toLowerCase() + sentence.slice(1) : sentence;
  return connector + body;
}

function slugOf(headline: string): string {
  return headline
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function digits(rng: Rng, count: number): string {
  let out = String(rng.int(1, 9));
  while (out.length < count) out += String(rng.int(0, 9));
  return out;
}

function citationFor(fragment: Fragment, market: Market, rng: Rng, timestampMs: number): Citation {
  const slug = slugOf(fragment.headline);
  const [yyyy, mm, dd] = new Date(timestampMs).toISOString().slice(0, 10).split('-');
  const urls: Record<SourceKind, () => string> = {
    news: () =>
      rng.pick([
        `https://www.coindesk.com/markets/${yyyy}/${mm}/${dd}/${slug}`,
        `https://www.theblock.co/post/${digits(rng, 6)}/${slug}`,
        `https://decrypt.co/${digits(rng, 6)}/${slug}`,
        `https://cointelegraph.com/news/${slug}`,
      ]),
    onchain: () =>
      market.cell === 'ethereum' && rng.chance(0.5)
        ? `https://etherscan.io/tx/0x${rng.hex(64)}`
        : `https://x.com/whale_alert/status/${digits(rng, 19)}`,
    chart: () =>
      `https://www.tradingview.com/chart/${market.symbol === 'TOTAL' ? 'TOTAL' : `${market.symbol}USD`}/${rng.hex(8)}-${slug}/`,
    macro: () => `https://www.reuters.com/markets/us/${slug}-${yyyy}-${mm}-${dd}/`,
  };
  const title = fragment.headline.charAt(0).toUpperCase() + fragment.headline.slice(1);
  return { url: urls[fragment.source](), title };
}
