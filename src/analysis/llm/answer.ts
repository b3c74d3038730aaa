import * as z from 'zod/mini';
import { AnalyzerError } from '../../errors.js';
import { MAX_JSON_DEPTH, parseBoundedJson } from '../../http/bounded-json.js';
import { errorBodyText } from '../../http/error-body.js';
import { oneLine } from '../../output/sanitize.js';
import type { AnalyzerOutput } from '../types.js';
import { decisionSchema } from './decision-schema.js';
import { extractJsonObject } from './json-extract.js';

export interface ParsedAnswer {
  output: AnalyzerOutput & { kind: 'decision' };
  /** Total tokens, when the server reports usage. */
  tokens?: number;
}

function completionSchema() {
  // Content is a string on every server we target; a list of text parts is accepted too, since some
  // gateways answer that way. Usage is informative only: a strange one is dropped, never fatal.
  const part = z.looseObject({ type: z.optional(z.string()), text: z.optional(z.string()) });
  const message = z.looseObject({
    content: z.optional(z.nullable(z.union([z.string(), z.array(part)]))),
    refusal: z.optional(z.nullable(z.string())),
  });
  return z.looseObject({
    choices: z.optional(
      z.array(z.looseObject({ finish_reason: z.optional(z.nullable(z.string())), message: z.optional(message) })),
    ),
    error: z.optional(z.unknown()),
    usage: z.catch(z.optional(z.looseObject({ total_tokens: z.optional(z.number()) })), undefined),
  });
}

/**
 * A 2xx chat-completions body to a decision, or an AnalyzerError saying what was wrong with it. `who`
 * names the model and server in messages; `scrub` removes the key from any server text quoted.
 */
export function parseCompletion(
  body: string,
  contentType: string,
  who: string,
  scrub: (text: string) => string,
): ParsedAnswer {
  const parsed = parseBoundedJson(body);
  if (!parsed.ok && parsed.tooDeep)
    throw new AnalyzerError(`${who} answered with JSON nested more than ${MAX_JSON_DEPTH} levels deep; refused`);
  if (!parsed.ok) {
    const said = errorBodyText(scrub(body), contentType);
    throw new AnalyzerError(`${who} answered with something that is not JSON${said ? `: ${said}` : ''}`, {
      hint: 'check that the base URL points at the OpenAI-compatible API (it usually ends in /v1)',
    });
  }
  const completion = completionSchema().safeParse(parsed.value);
  if (!completion.success) throw new AnalyzerError(`${who} answered with JSON that is not a chat completion`);
  const { choices, error, usage } = completion.data;
  const choice = choices?.[0];
  if (!choice) {
    const said = error === undefined ? '' : errorBodyText(scrub(JSON.stringify({ error })), 'application/json');
    throw new AnalyzerError(said ? `${who} answered with an error: ${said}` : `${who} answered with no choices`);
  }
  if (choice.finish_reason === 'length') {
    throw new AnalyzerError(`${who} ran out of tokens before finishing its answer (truncated)`);
  }
  const refusal = choice.message?.refusal?.trim();
  if (refusal) throw new AnalyzerError(`${who} refused: ${oneLine(scrub(refusal), 160)}`);
  if (choice.finish_reason === 'content_filter')
    throw new AnalyzerError(`${who} refused: its content filter stopped the answer`);
  const raw = choice.message?.content;
  const content = Array.isArray(raw) ? raw.map((p) => p.text ?? '').join('') : (raw ?? '');
  if (content.trim() === '') throw new AnalyzerError(`${who} answered with empty content`);

  const extracted = extractJsonObject(content);
  if ('error' in extracted) throw new AnalyzerError(`${who} did not answer with a decision: ${extracted.error}`);
  const decision = decisionSchema().safeParse(extracted.json);
  if (!decision.success) {
    const issue = decision.error.issues[0];
    // An answer that is not even an object is missing its action first of all.
    const where = issue?.path.map(String).join('.') || 'action';
    throw new AnalyzerError(
      `${who} answered with JSON that breaks the decision schema (${where}: ${issue?.message ?? 'not valid'})`,
    );
  }
  const d = decision.data;
  const output: ParsedAnswer['output'] =
    d.action === 'post'
      ? { kind: 'decision', action: 'post', conviction: d.conviction, text: d.text }
      : { kind: 'decision', action: 'skip', reason: d.reason ?? '' };
  const tokens = usage?.total_tokens;
  return tokens === undefined ? { output } : { output, tokens };
}
