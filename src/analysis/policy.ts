import type { Profile } from '../domain/profile.js';
import type { Thread } from '../domain/thread.js';
import { PROFILE_NUMBERS, sizeCap } from './profile-numbers.js';
import { typicalMovePct, typicalMoveWords } from './typical-move.js';
import { externalText, isPlainReason } from './external-text.js';
import { composeSummary } from './summary-text.js';
import { cleanInline, signed } from './text-clean.js';
import type { SkipKind } from '../domain/skip.js';
import type { AnalyzerDecision, AnalyzerOutput, Decision, Signal, Trace } from './types.js';

/** What the policy knows about one decision besides the analyzer's output. */
interface Known {
  profile: Profile;
  cell: string;
  sigma: number;
  /** The largest size allowed, in %, one decimal: the style's top of range × σ, rounded down. */
  cap: number;
  trace: Trace;
}

/**
 * The one policy: a signal plus the profile plus the cell become a skip or a sized post, and a
 * complete decision from an external analyzer passes the same final checks (docs/analyzer.md#how-the-analyzer-decides).
 * Pure: the same arguments always give the same decision and the same trace lines.
 */
export function decide(thread: Thread, profile: Profile, output: AnalyzerOutput, trace: Trace): Decision {
  const cell = cleanInline(thread.cell).replace(/^c\//i, '');
  const sigma = typicalMovePct(thread);
  const [low, top] = PROFILE_NUMBERS.style[profile.conviction_style];
  const cap = sizeCap(profile.conviction_style, sigma);
  trace.push(
    `policy: c/${cell} ${typicalMoveWords(thread)}, ${profile.conviction_style} ${low}-${top}σ, at most ±${cap.toFixed(1)}%`,
  );
  const known: Known = { profile, cell, sigma, cap, trace };
  const decision =
    output.kind === 'signal'
      ? fromSignal(output, known)
      : output.kind === 'decision'
        ? fromDecision(output, known)
        : skip('unusable-answer', 'the analyzer returned neither a signal nor a decision');
  trace.push(
    decision.action === 'skip'
      ? `policy: skip: ${decision.reason}`
      : `policy: post ${signed(decision.conviction, 1)}: ${decision.text}`,
  );
  return decision;
}

function fromSignal(signal: Signal, known: Known): Decision {
  const { profile, sigma, trace } = known;
  const numbers = PROFILE_NUMBERS;
  if (!Number.isFinite(signal.strength))
    return skip('unusable-answer', 'the analyzer gave a strength that is not a finite number');
  if (signal.evidence.length === 0)
    return skip('no-evidence', 'no evidence: nothing in the thread reads bullish or bearish');

  const strength = clamp(signal.strength);
  if (strength !== signal.strength) {
    trace.push(`policy: strength ${signed(signal.strength)} clamped to ${signed(strength)}`);
  }
  if (Math.abs(strength) < numbers.cancelBelow) {
    const mixed = signal.evidence.some((e) => e.weight > 0) && signal.evidence.some((e) => e.weight < 0);
    const why = mixed ? 'the evidence cancels out' : 'the evidence is too weak';
    return skip(mixed ? 'mixed-evidence' : 'weak-evidence', `${why} (strength ${signed(strength)})`);
  }

  const shift = numbers.bias[profile.directional_bias];
  // Rounded so that 0.35 - 0.10 is 0.25 and meets a 0.25 threshold, as a person would expect.
  const biased = Math.round(clamp(strength + shift) * 1e6) / 1e6;
  if (Math.sign(biased) !== Math.sign(strength)) {
    return skip(
      'bias',
      `the ${profile.directional_bias} bias outweighs the weak evidence (strength ${signed(strength)})`,
    );
  }
  if (shift !== 0) {
    const bias = `${profile.directional_bias} bias ${signed(shift)}`;
    trace.push(`policy: ${bias}: strength ${signed(strength)} → ${signed(biased)}`);
  }

  const threshold = numbers.participation[profile.participation];
  const magnitude = Math.abs(biased);
  if (magnitude < threshold) {
    return skip(
      'below-threshold',
      `strength ${signed(biased)} is below the ${profile.participation} threshold ${threshold.toFixed(2)}`,
    );
  }
  const [low, top] = numbers.style[profile.conviction_style];
  const above = (magnitude - threshold) / (1 - threshold);
  const size = (low + above * (top - low)) * sigma;
  trace.push(
    `policy: |strength| ${magnitude.toFixed(2)} ≥ ${profile.participation} ${threshold.toFixed(2)}; ` +
      `size (${low} + ${above.toFixed(2)} × ${(top - low).toFixed(1)}) × σ ${sigma} = ${size.toFixed(2)}%`,
  );

  const conviction = finalConviction(Math.sign(biased) * size, known);
  const supporting = signal.evidence.filter((e) => Math.sign(e.weight) === Math.sign(conviction));
  // An external analyzer's evidence is free text: a phrase stating a size, the other direction or a link
  // is not quoted (the built-in lexicon's labels never do).
  const reasons = (supporting.length > 0 ? supporting : signal.evidence)
    .map((e) => e.phrase)
    .filter((phrase) => isPlainReason(phrase, conviction));
  return { action: 'post', conviction, text: composeSummary({ cell: known.cell, conviction, reasons }) };
}

function fromDecision(decision: AnalyzerDecision, known: Known): Decision {
  const { trace } = known;
  if (decision.action === 'skip') {
    return skip('analyzer-skip', cleanInline(String(decision.reason ?? '')) || 'the analyzer chose to skip');
  }
  const raw: unknown = decision.conviction;
  if (typeof raw !== 'number' || !Number.isFinite(raw)) {
    return skip('unusable-answer', 'the analyzer gave a conviction that is not a finite number');
  }
  if (raw === 0) return skip('unusable-answer', 'the analyzer gave conviction 0, which has no direction');

  const conviction = finalConviction(raw, known);
  const verdict = externalText(typeof decision.text === 'string' ? decision.text : '', known.cell, conviction, trace);
  if ('contradiction' in verdict) return skip('contradiction', verdict.contradiction);
  return { action: 'post', conviction, text: verdict.text };
}

/** One decimal, never 0.0 or -0, never past the cap; every adjustment is traced. */
function finalConviction(raw: number, known: Known): number {
  const { cap, sigma, profile, trace } = known;
  const sign = raw > 0 ? 1 : -1;
  let size = Math.round(Math.abs(raw) * 10) / 10;
  if (size === 0) {
    size = 0.1;
    trace.push(`policy: conviction ${signed(raw, 3)} rounds to 0.0; posting ${signed(sign * size, 1)}`);
  }
  if (size > cap) {
    const [, top] = PROFILE_NUMBERS.style[profile.conviction_style];
    trace.push(
      `policy: conviction ${signed(raw, 1)} clamped to ${signed(sign * cap, 1)} ` +
        `(${profile.conviction_style} top ${top}σ × σ ${sigma}% on c/${known.cell})`,
    );
    size = cap;
  }
  return sign * size;
}

function clamp(x: number): number {
  return Math.min(1, Math.max(-1, x));
}

// Every skip the policy makes names its kind: stats counts them by it (src/domain/skip.ts).
function skip(skipKind: SkipKind, reason: string): Decision {
  return { action: 'skip', skipKind, reason };
}
