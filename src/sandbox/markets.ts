// The cells the feed writes about, with a plausible price level and a typical 3-hour move.
// σ follows docs/analyzer.md#how-the-analyzer-decides so that the sandbox's outcomes and the client's sizing agree.

export interface Market {
  cell: string;
  /** How texts name it: "Bitcoin", "Total crypto market cap". */
  name: string;
  /** Ticker used for flows and liquidations; the total market borrows BTC's. */
  ticker: string;
  /** Chart symbol, for statements about the price level: TOTAL for the total market cap. */
  symbol: string;
  /** How an ETF on it is called in a headline. */
  etf: string;
  /** Typical price at the time of writing; each thread varies it a little. */
  price: number;
  /** Typical 3-hour move, in %. */
  sigma: number;
  /** Share of the feed, relative. */
  weight: number;
  /** Alt coins get listings, delistings and token unlocks; majors and the total market do not. */
  alt: boolean;
}

export const MARKETS: readonly Market[] = [
  {
    cell: 'bitcoin',
    name: 'Bitcoin',
    ticker: 'BTC',
    symbol: 'BTC',
    etf: 'bitcoin',
    price: 97_000,
    sigma: 0.9,
    weight: 30,
    alt: false,
  },
  {
    cell: 'ethereum',
    name: 'Ethereum',
    ticker: 'ETH',
    symbol: 'ETH',
    etf: 'ether',
    price: 3_400,
    sigma: 1.2,
    weight: 20,
    alt: false,
  },
  {
    cell: 'solana',
    name: 'Solana',
    ticker: 'SOL',
    symbol: 'SOL',
    etf: 'solana',
    price: 180,
    sigma: 1.5,
    weight: 14,
    alt: true,
  },
  {
    cell: 'general',
    name: 'Total crypto market cap',
    ticker: 'BTC',
    symbol: 'TOTAL',
    etf: 'bitcoin',
    price: 3.3e12,
    sigma: 0.8,
    weight: 14,
    alt: false,
  },
  { cell: 'xrp', name: 'XRP', ticker: 'XRP', symbol: 'XRP', etf: 'XRP', price: 2.3, sigma: 1.3, weight: 5, alt: true },
  {
    cell: 'chainlink',
    name: 'Chainlink',
    ticker: 'LINK',
    symbol: 'LINK',
    etf: 'LINK',
    price: 18,
    sigma: 1.6,
    weight: 5,
    alt: true,
  },
  {
    cell: 'avalanche',
    name: 'Avalanche',
    ticker: 'AVAX',
    symbol: 'AVAX',
    etf: 'AVAX',
    price: 32,
    sigma: 1.6,
    weight: 4,
    alt: true,
  },
  {
    cell: 'dogecoin',
    name: 'Dogecoin',
    ticker: 'DOGE',
    symbol: 'DOGE',
    etf: 'DOGE',
    price: 0.18,
    sigma: 1.6,
    weight: 4,
    alt: true,
  },
  {
    cell: 'arbitrum',
    name: 'Arbitrum',
    ticker: 'ARB',
    symbol: 'ARB',
    etf: 'ARB',
    price: 0.62,
    sigma: 2.0,
    weight: 4,
    alt: true,
  },
];

/** σ for cells outside the list (threads added by tests with any project_id). */
export const DEFAULT_SIGMA = 2.0;

export function marketOf(projectId: string): Market | undefined {
  const cell = projectId.replace(/^c\//, '').trim().toLowerCase();
  return MARKETS.find((market) => market.cell === cell);
}

export function sigmaOf(projectId: string): number {
  return marketOf(projectId)?.sigma ?? DEFAULT_SIGMA;
}

/** Rounds a price to the precision a price feed would show at that magnitude. */
export function roundPrice(price: number): number {
  const decimals = price >= 1e9 ? 0 : price >= 1000 ? 2 : price >= 1 ? 3 : 5;
  const factor = 10 ** decimals;
  return Math.round(price * factor) / factor;
}

/** "$97,250", "$3,412.50", "$0.6210", "$3.31T": how a price level reads in a headline. */
export function formatLevel(price: number): string {
  if (price >= 1e12) return `$${(price / 1e12).toFixed(2)}T`;
  if (price >= 1000) return `$${Math.round(price).toLocaleString('en-US')}`;
  if (price >= 1) return `$${price.toFixed(2)}`;
  return `$${price.toFixed(4)}`;
}
