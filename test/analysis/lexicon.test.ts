import { describe, expect, it } from 'vitest';
import { lexicon } from '../../src/analysis/lexicon.js';
import { readText } from '../../src/analysis/read-text.js';

type Sign = 1 | -1 | 0;

// [headline, rule that must fire, its sign after negation and amounts (0: cancelled)]
// Written like the market-signal headlines the service carries; several per rule where the rule has
// several phrasings or a negation.
const FIXTURES: ReadonlyArray<readonly [string, string, Sign]> = [
  // onchain
  ['Whale moves 10,000 BTC to Binance ahead of CPI print', 'onchain.to-exchange', -1],
  ['Dormant wallet transfers 4,200 ETH into Coinbase after 8 years', 'onchain.to-exchange', -1],
  ['Jump Trading deposits 20M ARB onto exchanges', 'onchain.to-exchange', -1],
  ['Exchange inflows of SOL hit a 3-month high', 'onchain.exchange-inflows', -1],
  ['Large inflows to Binance spotted before the unlock', 'onchain.exchange-inflows', -1],
  ['Exchange reserves rising for the third straight week', 'onchain.exchange-inflows', -1],
  ['Exchange outflows accelerate as holders self-custody', 'onchain.from-exchange', 1],
  ['Whale withdraws 2,500 BTC from Binance to cold storage', 'onchain.from-exchange', 1],
  ['$300M in ETH pulled from exchanges this week', 'onchain.from-exchange', 1],
  ['Exchange reserves drop to a 5-year low', 'onchain.from-exchange', 1],
  ['Whales accumulating LINK at the fastest pace since 2021', 'onchain.whale-accumulation', 1],
  ['Smart money keeps buying the dip in PEPE', 'onchain.whale-accumulation', 1],
  ['On-chain data points to accumulation by long-term holders', 'onchain.whale-accumulation', 1],
  ['Whales are not buying this rally', 'onchain.whale-accumulation', -1],
  ['Whales dump 1.2 trillion SHIB in 24 hours', 'onchain.whale-selling', -1],
  ['Miners selling BTC at the fastest rate since March', 'onchain.whale-selling', -1],
  ['Early investors offload tokens after the airdrop', 'onchain.whale-selling', -1],
  ['Long-term holders are not selling despite the dip', 'onchain.whale-selling', 1],
  ['Aave TVL surges past $20B', 'onchain.tvl-up', 1],
  ['Total value locked on Base doubles in a month', 'onchain.tvl-up', 1],
  ['Solana DeFi TVL falls 18% as memecoin mania cools', 'onchain.tvl-down', -1],
  ['Active addresses on Tron hit a record high', 'onchain.activity-up', 1],
  ['Network activity on Cardano keeps declining', 'onchain.activity-down', -1],
  ['Tether mints another $1B USDT on Tron', 'onchain.stablecoin-mint', 1],

  // fundamental
  ['Spot Bitcoin ETFs saw $500M in net inflows on Monday', 'fundamental.etf-inflows', 1],
  ['Record inflows into spot Ether ETFs', 'fundamental.etf-inflows', 1],
  ['ETF inflows did not materialise this week', 'fundamental.etf-inflows', -1],
  ['Spot ether ETF inflows dry up after a strong first week', 'fundamental.etf-inflows-slow', -1],
  ['Bitcoin ETFs post $1.1B in outflows, the largest since launch', 'fundamental.etf-outflows', -1],
  ['Outflows from spot ETH ETFs continue for a fifth day', 'fundamental.etf-outflows', -1],
  ['SEC approves spot Ethereum ETFs', 'fundamental.etf-approval', 1],
  ['Spot Solana ETF gets the green light from regulators', 'fundamental.etf-approval', 1],
  ['Spot XRP ETF approval delayed again by the SEC', 'fundamental.etf-approval', -1],
  ['SEC has not approved the Litecoin ETF', 'fundamental.etf-approval', -1],
  ['SEC rejects spot Solana ETF application', 'fundamental.etf-rejection', -1],
  ['SEC denied the spot ETF approval for Cardano', 'fundamental.etf-rejection', -1],
  ['The Dogecoin ETF was rejected by the SEC', 'fundamental.etf-rejection', -1],
  ['Grayscale files for an Avalanche ETF', 'fundamental.etf-filing', 1],
  ['Coinbase to list PEPE perpetual futures', 'fundamental.listing', 1],
  ['Token listed on Binance, trading opens at 10:00 UTC', 'fundamental.listing', 1],
  ['Upbit adds SUI to its KRW market', 'fundamental.listing', 1],
  ['Binance will delist three tokens on Friday', 'fundamental.delisting', -1],
  ['Robinhood removes SOL from its platform', 'fundamental.delisting', -1],
  ['Arbitrum faces $92M token unlock next week', 'fundamental.unlock', -1],
  ['Aptos unlocks 11M APT tokens today', 'fundamental.unlock', -1],
  ['The cliff unlock was postponed to next year', 'fundamental.unlock', 1],
  ['DeFi protocol exploited for $47M', 'fundamental.hack', -1],
  ['Bridge drained of $120M in ETH', 'fundamental.hack', -1],
  ['Protocol to refund exploit victims in full from its treasury', 'fundamental.hack-covered', 1],
  ['Exchange hot wallet hacked, $30M stolen', 'fundamental.hack', -1],
  ['Protocol suffers a flash loan attack', 'fundamental.hack', -1],
  ['Security breach at a major custodian', 'fundamental.hack', -1],
  ['Hack rumors denied by the team', 'fundamental.hack', 0],
  ['Binance denies being hacked', 'fundamental.hack', 0],
  ['Memecoin rug pull wipes out $10M', 'fundamental.rug-pull', -1],
  ['Binance halts withdrawals on the Solana network', 'fundamental.withdrawals-halted', -1],
  ['Exchange withdrawals paused after suspicious activity', 'fundamental.withdrawals-halted', -1],
  ['Withdrawals are no longer halted, the exchange says', 'fundamental.withdrawals-halted', 1],
  ['Withdrawals resume on Bybit after 12 hours', 'fundamental.withdrawals-resumed', 1],
  ['Lender files for bankruptcy', 'fundamental.insolvency', -1],
  ['Fears of insolvency grow at the exchange', 'fundamental.insolvency', -1],
  ['Solana network outage stops block production for 5 hours', 'fundamental.outage', -1],
  ['Chain halted after a consensus bug', 'fundamental.outage', -1],
  ['USDe briefly depegs to $0.97', 'fundamental.depeg', -1],
  ['Chainlink partners with SWIFT on tokenised assets', 'fundamental.partnership', 1],
  ['Polygon announces a partnership with Stripe', 'fundamental.partnership', 1],
  ['Ethereum Dencun upgrade goes live on mainnet', 'fundamental.upgrade', 1],
  ['Cardano completes the Chang hard fork', 'fundamental.upgrade', 1],
  ['Mainnet launch delayed to Q3', 'fundamental.upgrade', -1],
  ['MicroStrategy buys another 5,000 BTC to add to its treasury', 'fundamental.treasury-buying', 1],
  ['Senator proposes a strategic bitcoin reserve', 'fundamental.treasury-buying', 1],

  // macro
  ['Fed signals rate cuts in September', 'macro.rate-cut', 1],
  ['ECB cuts interest rates for the first time since 2019', 'macro.rate-cut', 1],
  ['Powell says no rate cut is coming soon', 'macro.rate-cut', -1],
  ['Fed hikes rates by 25 bps', 'macro.rate-hike', -1],
  ['Markets price in another rate hike', 'macro.rate-hike', -1],
  ['Fed minutes strike a dovish tone', 'macro.dovish', 1],
  ['Powell sounds hawkish at Jackson Hole', 'macro.hawkish', -1],
  ['CPI comes in hotter than expected at 3.5%', 'macro.inflation-hot', -1],
  ['Hot CPI print rattles risk assets', 'macro.inflation-hot', -1],
  ['Inflation cooler than expected at 2.9%', 'macro.inflation-cool', 1],
  ['Core PCE below expectations', 'macro.inflation-cool', 1],
  ['Inflation eases for a third month', 'macro.inflation-cool', 1],
  ['DXY surges to a two-year high', 'macro.dollar-strong', -1],
  ['The dollar weakens after the jobs report', 'macro.dollar-weak', 1],
  ['Recession fears hit crypto and equities', 'macro.recession', -1],
  ['SEC sues Binance and its founder', 'macro.lawsuit', -1],
  ['SEC charges Kraken over its staking program', 'macro.lawsuit', -1],
  ['Exchange receives Wells notice from the SEC', 'macro.lawsuit', -1],
  ['Former exchange CEO pleads guilty to fraud charges', 'macro.lawsuit', -1],
  ['SEC drops lawsuit against Coinbase', 'macro.legal-win', 1],
  ['Ripple wins case against the SEC', 'macro.legal-win', 1],
  ['The investigation into the exchange was closed', 'macro.legal-win', 1],
  ['China bans crypto mining again', 'macro.crackdown', -1],
  ['Regulators announce a crackdown on offshore exchanges', 'macro.crackdown', -1],
  ['Nigeria lifts its ban on crypto banking', 'macro.ban-lifted', 1],
  ['Stablecoin bill passes the Senate', 'macro.regulatory-clarity', 1],
  ['New chair promises regulatory clarity for crypto', 'macro.regulatory-clarity', 1],

  // technical
  ['Bitcoin breaks out above $70K resistance', 'technical.breakout', 1],
  ['ETH clears key resistance at $4,000', 'technical.breakout', 1],
  ['BTC breaches $70K resistance on volume', 'technical.breakout', 1],
  ['SOL reclaims $150 after the dip', 'technical.breakout', 1],
  ['BTC failed to break above $72K resistance', 'technical.breakout', -1],
  ['ETH breaks down below key support', 'technical.breakdown', -1],
  ['XRP loses the $0.50 support', 'technical.breakdown', -1],
  ['Bitcoin did not break below support', 'technical.breakdown', 1],
  ['Support holds at $60K for a third test', 'technical.support-holds', 1],
  ['DOGE bounces off key support', 'technical.support-holds', 1],
  ['SOL rejected at resistance again', 'technical.resistance-rejection', -1],
  ['ADA struggles below $0.60 resistance', 'technical.resistance-rejection', -1],
  ['RSI shows overbought conditions on the 4h chart', 'technical.rsi-overbought', -1],
  ['RSI not yet overbought', 'technical.rsi-overbought', 0],
  ['Daily RSI oversold for the first time since August', 'technical.rsi-oversold', 1],
  ['Golden cross forms on the BTC daily chart', 'technical.golden-cross', 1],
  ['Death cross looms for Ether', 'technical.death-cross', -1],
  ['Bitcoin hits a new all-time high above $100K', 'technical.all-time-high', 1],
  ['BNB sets a record high', 'technical.all-time-high', 1],
  ['AVAX prints higher lows on the weekly', 'technical.bullish-pattern', 1],
  ['LINK forms a bull flag', 'technical.bullish-pattern', 1],
  ['AVAX breaks out of a falling wedge', 'technical.bullish-pattern', 1],
  ['Rising wedge on the BTC 4h chart', 'technical.bearish-pattern', -1],
  ['$BTC just broke the downtrend line from March', 'technical.breakout', 1],
  ['Head and shoulders pattern forms on the ETH chart', 'technical.bearish-pattern', -1],
  ['DOT stuck in a downtrend', 'technical.bearish-pattern', -1],
  ['Dogecoin soars 20% overnight', 'technical.price-up', 1],
  ['Altcoins rally as Bitcoin dominance slips', 'technical.price-up', 1],
  ['LUNA crashes 60% in a day', 'technical.price-down', -1],
  ['Crypto market sell-off deepens', 'technical.price-down', -1],
  ['Memecoin market collapses overnight', 'technical.price-down', -1],
  ['Heavy sell pressure from miners', 'technical.sell-pressure', -1],
  ['Profit-taking caps the rally', 'technical.sell-pressure', -1],
  ['No sell pressure from miners this cycle', 'technical.sell-pressure', 1],
  ['Strong buying pressure on spot exchanges', 'technical.buy-pressure', 1],
  ['$1.2B in longs liquidated as BTC tumbles', 'technical.long-liquidations', -1],
  ['Long squeeze wipes out leveraged traders', 'technical.long-liquidations', -1],
  ['Short squeeze sends ETH higher', 'technical.short-squeeze', 1],
  ['$400M in shorts liquidated in an hour', 'technical.short-squeeze', 1],
  ['$2B liquidated across crypto markets', 'technical.liquidations', -1],

  // sentiment
  ['Analysts turn bullish on SOL', 'sentiment.bullish-word', 1],
  ['Bitcoin is not bullish here', 'sentiment.bullish-word', -1],
  ["I'm not bearish on ETH", 'sentiment.bearish-word', 1],
  ['Traders remain bearish into the weekend', 'sentiment.bearish-word', -1],
  ['Fear & Greed index drops to extreme fear', 'sentiment.extreme-fear', -1],
  ['Panic selling hits altcoins', 'sentiment.extreme-fear', -1],
  ['Miner capitulation signals stress', 'sentiment.extreme-fear', -1],
  ['Fear & Greed index hits extreme greed', 'sentiment.extreme-greed', 1],
  ['Retail FOMO returns to memecoins', 'sentiment.extreme-greed', 1],
  ['DOGE trending on X after Musk post', 'sentiment.social-hype', 1],
  ['Social volume spikes for PEPE', 'sentiment.social-hype', 1],
  ['Memecoin hype builds before the listing', 'sentiment.hype', 1],
  ['FUD spreads after a false rumour', 'sentiment.fud', -1],

  // regulation and law
  ['Watchdog approves the first tokenised bond fund', 'regulation.approval', 1],
  ['Exchange wins a full operating licence in Abu Dhabi', 'regulation.approval', 1],
  ['The stablecoin is still awaiting approval from the regulator', 'regulation.approval', -1],
  ['Regulator rejects the application for a crypto bank', 'regulation.rejection', -1],
  ['SEC postpones its decision on the Dogecoin fund', 'regulation.delay', -1],
  ['Bhutan adopts bitcoin for state reserves', 'regulation.adoption', 1],
  ['Parliament votes to make bitcoin legal tender', 'regulation.adoption', 1],
  ['Parliament votes to remove bitcoin as legal tender', 'regulation.adoption-reversed', -1],
  ['Retailer rolls back crypto payments', 'regulation.adoption-reversed', -1],
  ['Ministers will not repeal the bitcoin law', 'regulation.adoption-reversed', 1],
  ['Bitcoin ceases to be legal tender on Monday', 'regulation.adoption-ended', -1],
  ['Senate passes the market structure act', 'regulation.law-passed', 1],
  ['Crypto tax bill stalls in committee', 'regulation.bill-stalls', -1],
  ['Regulator eases rules for token issuers', 'regulation.friendly-rules', 1],
  ['New law lets banks hold bitcoin for clients', 'regulation.friendly-rules', 1],
  ['Government slaps a new tax on crypto trades', 'regulation.hostile-rules', -1],
  ['Ministry tightens rules on stablecoin issuers', 'regulation.hostile-rules', -1],
  ['Regulator issues a cease-and-desist to the lending app', 'regulation.enforcement', -1],
  ['Exchange ordered to pay a $20M penalty', 'regulation.enforcement', -1],
  ['Judge throws out the case against the wallet maker', 'regulation.court-win', 1],
  ['Court rules the token is not a security', 'regulation.court-win', 1],

  // corporate and funding
  ['Wallet startup raises $12M in a seed round', 'corporate.funding', 1],
  ['Payments giant to acquire a crypto custodian', 'corporate.acquisition', 1],
  ['Brokerage adds support for Solana trading', 'corporate.adds-support', 1],
  ['Neobank adds bitcoin trading for all customers', 'corporate.adds-support', 1],
  ['Bank cuts ties with crypto exchanges', 'corporate.pulls-back', -1],
  ['Game publisher scraps its NFT plans', 'corporate.pulls-back', -1],
  ['Crypto broker lays off a third of its staff', 'corporate.pulls-back', -1],
  ['Carmaker buys another $200M of bitcoin', 'corporate.treasury-buy', 1],
  ['Insurer invests in a spot bitcoin ETF', 'corporate.treasury-buy', 1],
  ['Miner sold its entire bitcoin stash in May', 'corporate.treasury-sell', -1],
  ['Exchange reports record quarterly revenue', 'corporate.strong-results', 1],
  ['Exchange misses revenue estimates as trading dries up', 'corporate.weak-results', -1],
  ['Stablecoin issuer files for an IPO', 'corporate.ipo', 1],

  // exchange and custody
  ['Exchange suspends deposits of the token', 'exchange.service-halted', -1],
  ['Trading is no longer halted on the exchange', 'exchange.service-halted', 1],
  ['Customers cannot withdraw funds from the lender', 'exchange.cannot-withdraw', -1],
  ['Exchange resumes trading after a four-hour outage', 'exchange.service-resumed', 1],
  ['Bankruptcy estate starts repaying creditors in full', 'exchange.repaid', 1],
  ['Users rush to withdraw from the embattled exchange', 'exchange.run', -1],

  // fraud
  ['Police call the mining app a Ponzi scheme', 'fraud.scheme', -1],
  ['Auditor finds the stablecoin was never fully backed', 'fraud.reserves-missing', -1],
  ['Token founder extradited to face trial', 'fraud.charged', -1],
  ['Jury acquits the exchange founder of all charges', 'fraud.cleared', 1],

  // market talk
  ['ETH climbs 6% to $3,400', 'market.price-up', 1],
  ['BTC +4% on the day', 'market.price-up', 1],
  ['SOL slides 11% as traders take profit', 'market.price-down', -1],
  ['ETH -7% this week', 'market.price-down', -1],
  ['ADA reaches a six-month high', 'market.new-high', 1],
  ['DOT falls to a yearly low', 'market.new-low', -1],
  // Session and tape words news uses for any market, crypto's too.
  ['Crypto stocks open higher on Monday', 'market.price-up', 1],
  ['Bitcoin miners tick up in early trade', 'market.price-up', 1],
  ['ETH turns positive on the day', 'market.price-up', 1],
  ['Crypto index up 120 points at the open', 'market.price-up', 1],
  ['Crypto shares trade lower before the hearing', 'market.price-down', -1],
  ['SOL turns negative after a morning rally fades', 'market.price-down', -1],
  ['Bitcoin dives as the dollar jumps', 'market.price-down', -1],
  ['Crypto index down 85 points at the close', 'market.price-down', -1],
  ['Bitcoin higher as ETF demand returns', 'market.price-up', 1],
  ['Solana gains as ETF demand returns', 'market.price-up', 1],
  ['Crypto stocks advance after a quiet week', 'market.price-up', 1],
  ['Crypto index down over 300 points at the close', 'market.price-down', -1],
  ['BTC touches an intraday high above $71K', 'market.new-high', 1],
  ['ETH sinks to an intraday low of $2,900', 'market.new-low', -1],
  ['Ether closes mostly lower after the upgrade', 'market.price-down', -1],
  ['ETH hits a two-and-a-half year high', 'market.new-high', 1],
  ['XRP trades at its lowest levels since 2021', 'market.new-low', -1],
  ['Retail keeps buying the dip in ETH', 'market.accumulation', 1],
  ['Selling pressure eases as miners hold', 'market.selling-eases', 1],
  ['Demand for the token dries up', 'market.demand-fades', -1],
  ['Bitcoin supply on exchanges keeps shrinking', 'market.supply-shrinks', 1],
  ['No bottom in sight for the memecoin', 'market.no-floor', -1],
  ['This bounce is a bull trap', 'market.dead-cat', -1],
  ['Squeeze incoming on SOL, shorts are trapped', 'market.short-trapped', 1],
  ["I'm long BTC from here", 'market.trader-long', 1],
  ['Shorting ETH into the weekend', 'market.trader-short', -1],
  ['Oversold bounce on SOL. Fade it.', 'market.trader-short', -1],
  ['Hedge funds increase short bets on ether futures to a record', 'market.trader-short', -1],
  ['Selling my MATIC into every green candle', 'market.dead-cat', -1],
  ['Adding more SOL under $140', 'market.accumulation', 1],
  ['Hoping for a dip so I can add more ETH', 'market.accumulation', 1],
  ['Sentiment sours after the exchange outage', 'market.mood-sours', -1],
  ['Risk appetite returns to crypto', 'market.mood-lifts', 1],
  ['Bitcoin gives up its weekend gains', 'market.gains-fade', -1],
  ['ETH pares early gains after the Fed minutes', 'market.gains-fade', -1],
  ['The SOL rally fizzles below $200', 'market.gains-fade', -1],
  ['BTC slips from its record high', 'market.gains-fade', -1],
  ['Bitcoin pares losses in late trade', 'market.losses-fade', 1],
  ['ETH erases its losses from the sell-off', 'market.losses-fade', 1],
  ['DOGE bounces off the lows', 'market.losses-fade', 1],
  ['The ETH rally runs into resistance at $4K', 'market.gains-fade', -1],
  ['SOL pulls back following a 30% run-up', 'market.gains-fade', -1],
  ['BTC stabilizes after the weekend rout', 'market.losses-fade', 1],
  ['SOL still has plenty of room to run', 'market.forecast-up', 1],
  ['ETH looks primed for a breakout', 'market.forecast-up', 1],
  ['Bitcoin is set to slide toward $60K', 'market.forecast-down', -1],
  ['This coin can still fall a lot from here', 'market.forecast-down', -1],
  ['ETH is not ready to rally yet', 'market.forecast-up', 0],
  ['Hold your BTC, this is a shakeout', 'social.holding', 1],
  ['Not selling a single coin', 'social.holding', 1],
  ['I am buying more this week', 'social.own-buying', 1],
  ['Great time to accumulate more ADA', 'social.buy-call', 1],
  ['Diamond hands on ETH through the dip', 'social.holding', 1],

  // macro
  ['China stimulus lifts risk assets', 'macro.tailwind', 1],
];

describe('lexicon fixtures', () => {
  it.each(FIXTURES)('%s → %s %i', (text, ruleId, sign) => {
    const readings = readText(text).filter((r) => r.ruleId === ruleId);
    expect(readings.length, `no ${ruleId} in ${JSON.stringify(readText(text))}`).toBeGreaterThan(0);
    expect(readings.map((r) => Math.sign(r.weight) || 0)).toContain(sign);
  });

  // A bare comparative before a noun is no move: "higher fees", "lower prices ahead".
  it.each([
    'Miners face higher costs this quarter',
    'Lower fees bring users back to the chain',
    // A metric's move is the metric's: costs, volume, debt.
    'Mining costs surge after the halving',
    'Volume has collapsed on the exchange',
    // The noun, not the move.
    'A 30% tax on crypto gains as of next year',
    'Advances in zero-knowledge proofs',
    // What is recovered is money, not a price.
    'Victims of the hack may never recover their money',
    'The lender says it will recover customer funds within weeks',
  ])('%s reads no price move', (text) => {
    expect(readText(text).filter((r) => r.cue === 'price move' && r.weight !== 0)).toEqual([]);
  });

  it('has a fixture for every rule', () => {
    const covered = new Set(FIXTURES.map(([, id]) => id));
    expect(
      lexicon()
        .map((r) => r.id)
        .filter((id) => !covered.has(id)),
    ).toEqual([]);
  });

  it('has unique ids, signed weights and labels short enough to quote', () => {
    expect(new Set(lexicon().map((r) => r.id)).size).toBe(lexicon().length);
    for (const r of lexicon()) {
      expect(r.weight).not.toBe(0);
      expect(Math.abs(r.weight)).toBeLessThanOrEqual(1);
      expect(r.label.length).toBeGreaterThan(0);
      expect(r.label.length).toBeLessThanOrEqual(60);
      for (const pattern of r.patterns) expect(pattern.flags).toBe('gi');
    }
  });
});
