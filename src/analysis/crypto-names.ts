import { compilePattern } from './compile-pattern.js';
// The names that tell what a text is about: coins, tokens and crypto firms, and the other things a price
// can be the price of (shares, indices, commodities, currencies).

// Coins by name: what a firm's news must name to be a coin's news ("Solana developer raises $20M").
const COINS_BY_NAME = [
  'bitcoins?|btc|ether|eth|ethereum|solana|sol|xrp|ripple|dogecoin|doge|cardano|ada|bnb|tron|trx',
  'toncoin|avalanche|avax|chainlink|polkadot|litecoin|ltc|shiba(?: inu)?|shib|pepe|sui|aptos',
  'arbitrum|polygon|matic|uniswap|aave|tether|usdt|usdc',
].join('|');

// Coins, tokens and the crypto words that say a text is about them. A cashtag names an asset too.
const COIN_NAMES = [
  COINS_BY_NAME,
  'stablecoins?|memecoins?|altcoins?|alts',
  'tokens?|coins?|crypto\\w*|defi|nfts?|blockchains?|on-?chain|web3|sats|satoshis?|dao|airdrops?',
  'staking|stakers?|validators?|mainnet|halving|hash ?rate|miners?|whales?|hodl\\w*|wallets?|dex',
  'cex|binance|coinbase|kraken|okx|bybit|bitfinex|kucoin|upbit|bithumb|bitstamp|ftx|celsius',
  'mt\\.? gox',
  // Crypto firms and things named often in headlines.
  'tornado cash|mixers?|protocols?|tvl|proof[- ]of[- ](?:reserves|stake|work)|layer[- ]?[12]s?',
  'smart contracts?|tokeni[sz]\\w*|long-term holders?|grayscale|bitwise|microstrategy',
  'galaxy digital|circle|paxos|blockfi|nexo|voyager|genesis|consensys|metamask|ledger|opensea|lido',
  'hyperliquid|jupiter|polymarket|wormhole|worldcoin|terra|luna',
  // Fund flows in a crypto feed are the crypto funds'.
  'spot (?:\\w+ )?etfs?|etfs? (?:inflows?|outflows?|flows)',
  'inflows? (?:in|into|to|for) (?:spot )?(?:\\w+ )?etfs?',
  // Words only crypto uses.
  'rug[\\s-]?pull\\w*|de-?peg\\w*|token unlocks?|memes?|degens?',
  '(?<!stock |foreign |currency )exchanges?',
].join('|');

/** A coin, a token, a crypto firm or word, or a cashtag. */
export const CRYPTO = compilePattern(`(?:\\$[a-z][a-z0-9]{1,9}\\b|\\b(?:${COIN_NAMES})\\b)`, 'i');

/** A coin by its name or a cashtag: not "crypto", "tokens" or "web3", which any firm of the trade says. */
export const COIN = compilePattern(`(?:\\$[a-z][a-z0-9]{1,9}\\b|\\b(?:${COINS_BY_NAME})\\b)`, 'i');

// What else a price is the price of: a move word right after one of these is a move of a price too. A
// text that names a coin as well reads these as another asset's move (frames.ts).
const ASSETS = [
  'shares|stocks?|equities|markets?|wall street|index|indices|futures|nasdaq|s&p(?: 500)?',
  'dow(?: jones)?|ftse|nikkei|dax|hang seng|gold|silver|copper|oil|crude|brent|wti|bonds?',
  'treasuries|dollar|euro|pound|sterling|yen|yuan|rupee|ruble|peso|lira',
].join('|');

/** Anything with a price: a crypto name or another asset. */
export const PRICED = compilePattern(`${CRYPTO.source}|\\b(?:${ASSETS})\\b`, 'i');
