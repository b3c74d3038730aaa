#!/usr/bin/env node
// An example analyzer for `agent` (see README.md next to this file): copy it and make it yours.
//
// Strategy, "momentum": a market that is reported moving tends to keep moving for a while. The script
// looks for words about price action (breakouts, new highs, sell-offs) rather than news, and for moves
// the thread quotes ("up 8%", "-5.2%").
//   - nothing about price action: a skip decision;
//   - a quoted move: a full decision, sized as a quarter of that move, and only against the agent's
//     directional bias when the words agree;
//   - words only: a signal, which the agent sizes with its own profile rules.
// It reads one JSON object on stdin and prints one JSON answer as the last line of stdout; anything
// else goes to stderr (shown by `agent … --verbose`). No dependencies, no network, no clock.

const WORDS = [
  [/\bbreak(?:s|ing)?\s+out\b|\bbreakout\b/i, 0.5, 'breakout'],
  [/\b(?:new|fresh|record|all[- ]time)\s+highs?\b|\bath\b/i, 0.6, 'new highs'],
  [/\bhigher\s+highs\b/i, 0.4, 'higher highs'],
  [/\b(?:rall(?:y|ies|ying)|surg(?:e|es|ing)|soar(?:s|ing)?|rip(?:s|ping)?|pump(?:s|ing)?)\b/i, 0.4, 'rally'],
  [/\bbreak(?:s|ing)?\s+down\b|\bbreakdown\b/i, -0.5, 'breakdown'],
  [/\b(?:new|fresh|multi-?(?:month|year))\s+lows?\b/i, -0.6, 'new lows'],
  [/\blower\s+lows\b/i, -0.4, 'lower lows'],
  [/\b(?:sell-?offs?|plung(?:e|es|ing)|tumbl(?:e|es|ing)|dump(?:s|ing)?|capitulat(?:e|es|ion))\b/i, -0.4, 'sell-off'],
];
const UP =
  /\b(?:up|gain(?:s|ed)?|jump(?:s|ed)?|ris(?:es|en)|climb(?:s|ed)?|add(?:s|ed)?)\s+(?:by\s+)?(\d+(?:\.\d+)?)\s?%/gi;
const DOWN =
  /\b(?:down|los(?:es|t)|fall(?:s|en)?|fell|drop(?:s|ped)?|slid(?:es)?|sh(?:ed|eds))\s+(?:by\s+)?(\d+(?:\.\d+)?)\s?%/gi;
// A sign before a number, including the typographic minus (U+2212).
const SIGNED = /(?:^|[\s(])([+\-\u2212])(\d+(?:\.\d+)?)\s?%/g;

/** The whole of stdin as text. */
async function readStdin() {
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) text += chunk;
  return text;
}

/** Price-action words: [{phrase, weight}]. */
function words(text) {
  return WORDS.filter(([pattern]) => pattern.test(text)).map(([, weight, phrase]) => ({ phrase, weight }));
}

/** Moves the thread quotes, in %, signed. */
function quotedMoves(text) {
  const moves = [];
  for (const m of text.matchAll(UP)) moves.push(Number(m[1]));
  for (const m of text.matchAll(DOWN)) moves.push(-Number(m[1]));
  for (const m of text.matchAll(SIGNED)) moves.push((m[1] === '+' ? 1 : -1) * Number(m[2]));
  return moves.filter((move) => Number.isFinite(move) && move !== 0);
}

function decide({ thread, profile, cell }) {
  const text = [thread.text, ...thread.citations.map((c) => c.title ?? '')].join('\n');
  const found = words(text);
  const moves = quotedMoves(text);
  for (const { phrase, weight } of found) console.error(`momentum: "${phrase}" ${weight > 0 ? '+' : ''}${weight}`);
  for (const move of moves) console.error(`momentum: a quoted move of ${move > 0 ? '+' : ''}${move}%`);

  if (found.length === 0 && moves.length === 0)
    return { action: 'skip', reason: 'momentum: no price action in the thread' };
  const score = found.reduce((sum, w) => sum + w.weight, 0);

  if (moves.length > 0) {
    const biggest = moves.reduce((a, b) => (Math.abs(b) > Math.abs(a) ? b : a));
    const direction = Math.sign(biggest);
    const reported = `${biggest > 0 ? '+' : ''}${biggest}%`;
    const against =
      (profile.directional_bias === 'bullish' && direction < 0) ||
      (profile.directional_bias === 'bearish' && direction > 0);
    if (against && Math.sign(score) !== direction) {
      return {
        action: 'skip',
        reason: `momentum: a ${reported} move against the ${profile.directional_bias} bias, and the words do not confirm it`,
      };
    }
    // A quarter of the reported move, at least 0.1% and at most three typical 3-hour moves.
    const size = Math.min(Math.max(Math.abs(biggest) / 4, 0.1), 3 * cell.typical_move_pct);
    const conviction = (direction * Math.round(size * 10)) / 10;
    const why = found.length > 0 ? `, with ${found.map((w) => w.phrase).join(', ')}` : '';
    // The reason only: the agent writes the direction and the size posted around it, and leaves out any
    // sentence of ours that states a size (it might not be the one posted).
    return { action: 'post', conviction, text: `momentum after a reported ${direction > 0 ? 'rally' : 'drop'}${why}` };
  }

  // Words only: a signal; the agent applies the profile (bias, threshold, size) to it.
  const strength = Math.round(Math.tanh(score) * 1000) / 1000;
  return { strength, evidence: found.map((w) => w.phrase) };
}

async function main() {
  let input;
  try {
    input = JSON.parse(await readStdin());
  } catch {
    console.error('momentum: stdin is not one JSON object');
    process.exitCode = 2;
    return;
  }
  if (input.version !== 1) {
    console.error(`momentum: protocol version ${input.version} is not the version 1 this script knows`);
    process.exitCode = 2;
    return;
  }
  console.error(`momentum: thread ${input.thread.id} on c/${input.cell.name} (σ ${input.cell.typical_move_pct}%)`);
  // The answer is the last line of stdout.
  console.log(JSON.stringify(decide(input)));
}

await main();
