import * as z from 'zod/mini';
import { PROFILE_FIELDS, type Profile } from '../domain/profile.js';
import { cellOf, type Thread } from '../domain/thread.js';
import { AnalyzerError } from '../errors.js';
import { MAX_JSON_DEPTH, parseBoundedJson } from '../http/bounded-json.js';
import { typicalMovePct } from './typical-move.js';
import { cleanInline } from './text-clean.js';
import type { AnalyzerOutput } from './types.js';

// The protocol an external analyzer speaks (examples/README.md): one JSON object in, one JSON
// answer out. `agent analyze --stdin` speaks it too, so a script can be checked against the built-in.

export const PROTOCOL_VERSION = 1;

/** What an analyzer is shown of a thread: the fields of docs/service.md#thread-list known at the thread's time. */
export interface AnalyzerInput {
  version: typeof PROTOCOL_VERSION;
  thread: {
    id: string;
    project_id: string;
    text: string;
    timestamp: string;
    price_on_fetch: number | null;
    citations: { url?: string; title?: string }[];
  };
  profile: Profile;
  cell: { name: string; typical_move_pct: number };
}

/**
 * Built field by field from the parsed thread, never by spreading what the service (or a backtest file)
 * sent: an outcome such as `price_on_eval` can never reach an analyzer this way.
 */
export function analyzerInput(thread: Thread, profile: Profile): AnalyzerInput {
  return {
    version: PROTOCOL_VERSION,
    thread: {
      id: thread.id,
      project_id: thread.projectId,
      text: thread.text,
      timestamp: thread.timestamp,
      price_on_fetch: thread.priceOnFetch ?? null,
      citations: citationsOf(thread.citations),
    },
    profile: {
      signal_method: profile.signal_method,
      conviction_style: profile.conviction_style,
      directional_bias: profile.directional_bias,
      participation: profile.participation,
    },
    cell: { name: thread.cell, typical_move_pct: typicalMovePct(thread) },
  };
}

const MAX_EVIDENCE = 20;
const MAX_PHRASE = 200;

function answerSchemas() {
  const finite = z.number().check(z.refine(Number.isFinite, { message: 'not a finite number' }));
  return {
    post: z.looseObject({ action: z.literal('post'), conviction: finite, text: z.optional(z.string()) }),
    skip: z.looseObject({ action: z.literal('skip'), reason: z.optional(z.string()) }),
    signal: z.looseObject({
      strength: finite,
      evidence: z.array(z.string()).check(z.maxLength(MAX_EVIDENCE, `at most ${MAX_EVIDENCE} phrases of evidence`)),
    }),
  };
}

/**
 * An answer as an analyzer printed it, checked: a signal `{strength, evidence}` or a decision
 * `{action: "post", conviction, text}` / `{action: "skip", reason}`. Anything else is an AnalyzerError,
 * so garbage is never posted; sizes and texts are still checked by the policy afterwards.
 */
export function parseAnswer(value: unknown, who: string): AnalyzerOutput {
  const shapes =
    'a signal {strength, evidence} or a decision {action: "post", conviction, text} / {action: "skip", reason}';
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new AnalyzerError(`${who} answered with ${describeValue(value)}, not ${shapes}`);
  const record = value as Record<string, unknown>;
  // The shape is chosen by its key, so that the message names what is wrong with it, not "invalid input".
  const schemas = answerSchemas();
  const kind =
    record.action === 'post' ? 'post' : record.action === 'skip' ? 'skip' : 'action' in record ? undefined : 'signal';
  if (kind === undefined)
    throw new AnalyzerError(
      `${who} answered with action ${JSON.stringify(oneLineOf(record.action))}: it must be "post" or "skip"`,
    );
  const result = schemas[kind].safeParse(value);
  if (!result.success)
    throw new AnalyzerError(
      `${who} answered with an invalid ${kind === 'signal' ? 'signal' : `"${kind}" decision`} (${describeIssue(result.error.issues)}); expected ${shapes}`,
    );
  if (kind === 'post') {
    const answer = result.data as { conviction: number; text?: string };
    return { kind: 'decision', action: 'post', conviction: answer.conviction, text: answer.text ?? '' };
  }
  if (kind === 'skip')
    return { kind: 'decision', action: 'skip', reason: (result.data as { reason?: string }).reason ?? '' };
  const answer = result.data as { strength: number; evidence: string[] };
  const phrases = answer.evidence
    .map((p) => Array.from(cleanInline(p)).slice(0, MAX_PHRASE).join(''))
    .filter((p) => p !== '');
  // The script says how strong and why, not how much each phrase weighs: each gets an equal share, so
  // the policy can still tell evidence from none (and quotes only the phrases that give reasons).
  const weight = phrases.length ? Math.round((answer.strength / phrases.length) * 1000) / 1000 : 0;
  return { kind: 'signal', strength: answer.strength, evidence: phrases.map((phrase) => ({ phrase, weight })) };
}

function describeValue(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

function oneLineOf(value: unknown): string {
  return Array.from(cleanInline(String(value)))
    .slice(0, 40)
    .join('');
}

/** The last non-empty line of an analyzer's stdout, as JSON: earlier lines are the script's own chatter. */
export function parseAnswerText(stdout: string, who: string): AnalyzerOutput {
  const line = stdout
    .split(/\r?\n/)
    .reverse()
    .find((l) => l.trim() !== '');
  if (line === undefined) throw new AnalyzerError(`${who} printed no answer on stdout`);
  const parsed = parseBoundedJson(line);
  if (!parsed.ok && parsed.tooDeep)
    throw new AnalyzerError(`${who} printed JSON nested more than ${MAX_JSON_DEPTH} levels deep; refused`);
  if (!parsed.ok) {
    throw new AnalyzerError(
      `${who} printed a last line that is not JSON: ${JSON.stringify(Array.from(cleanInline(line)).slice(0, 80).join(''))}`,
    );
  }
  return parseAnswer(parsed.value, who);
}

function inputSchema() {
  const citation = z.catch(
    z.looseObject({
      url: z.catch(z.optional(z.string()), undefined),
      title: z.catch(z.optional(z.string()), undefined),
    }),
    {},
  );
  return z.looseObject({
    version: z.optional(z.number()),
    thread: z.looseObject({
      id: z.pipe(z.union([z.string().check(z.minLength(1)), z.number()]), z.transform(String)),
      project_id: z.string(),
      text: z.string(),
      timestamp: z
        .string()
        .check(z.refine((v) => Number.isFinite(Date.parse(v)), { message: 'not an ISO 8601 timestamp' })),
      price_on_fetch: z.catch(z.optional(z.nullable(z.number())), undefined),
      citations: z.catch(z.array(citation), []),
    }),
    profile: z.object({
      signal_method: z.enum(PROFILE_FIELDS.signal_method),
      conviction_style: z.enum(PROFILE_FIELDS.conviction_style),
      directional_bias: z.enum(PROFILE_FIELDS.directional_bias),
      participation: z.enum(PROFILE_FIELDS.participation),
    }),
  });
}

/** The other side of the protocol (`agent analyze --stdin`): an input object back to a thread and a profile. */
export function parseInput(value: unknown): { thread: Thread; profile: Profile } | { error: string } {
  const version = (value as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > PROTOCOL_VERSION) {
    return { error: `protocol version ${version} is newer than this agent's (${PROTOCOL_VERSION})` };
  }
  const result = inputSchema().safeParse(value);
  if (!result.success) return { error: describeIssue(result.error.issues) };
  const { thread, profile } = result.data;
  return {
    thread: {
      id: thread.id,
      projectId: thread.project_id,
      cell: cellOf(thread.project_id),
      text: thread.text,
      timestamp: thread.timestamp,
      locked: false,
      ...(typeof thread.price_on_fetch === 'number' ? { priceOnFetch: thread.price_on_fetch } : {}),
      citations: citationsOf(thread.citations),
    },
    profile,
  };
}

/** Only url and title, and only those present: anything else a citation carries stays behind. */
function citationsOf(citations: readonly { url?: string; title?: string }[]): { url?: string; title?: string }[] {
  return citations.map((c) => ({
    ...(c.url !== undefined ? { url: c.url } : {}),
    ...(c.title !== undefined ? { title: c.title } : {}),
  }));
}

function describeIssue(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  const issue = issues[0];
  return issue ? `${issue.path.map(String).join('.') || 'the answer'}: ${issue.message}` : 'not valid';
}
