// Models asked for JSON do not always answer with JSON alone: a ```json fence, a sentence before, a
// reasoning model's <think> block. What we accept, and why:
// - the whole content as JSON;
// - a fenced block (```json … ``` or ``` … ```): the fence is stripped;
// - a leading <think>…</think> block (Qwen3, DeepSeek-R1 on Ollama or llama.cpp): dropped;
// - prose around exactly ONE balanced top-level object: that object. With two or more the model said
//   two things and we cannot know which it meant, so the answer is rejected rather than guessed.
// Whatever is extracted is then checked against the decision schema, so a stray `{}` in prose is never
// mistaken for a decision.

import { MAX_JSON_DEPTH, parseBoundedJson } from '../../http/bounded-json.js';

export type Extracted = { json: unknown } | { error: string };

const THINK = /^\s*<think>[\s\S]*?<\/think>/i;
const FENCE = /^```[a-zA-Z]*[ \t]*\r?\n([\s\S]*?)\r?\n?```$/;

export function extractJsonObject(content: string): Extracted {
  const text = content.replace(THINK, '').trim();
  if (text === '') return { error: 'the answer is empty' };
  const fenced = FENCE.exec(text)?.[1]?.trim();
  const body = fenced ?? text;
  const whole = parseBoundedJson(body);
  if (whole.ok) return { json: whole.value };
  if (whole.tooDeep) return { error: `the answer holds JSON nested more than ${MAX_JSON_DEPTH} levels deep` };
  const spans = topLevelObjects(body);
  if (spans === 'unbalanced') return { error: 'the answer has a JSON object that never closes' };
  const [only, ...more] = spans;
  if (!only) return { error: 'the answer holds no JSON object' };
  if (more.length) return { error: `the answer holds ${spans.length} JSON objects, not one` };
  const [start, end] = only;
  const one = parseBoundedJson(body.slice(start, end));
  return one.ok ? { json: one.value } : { error: 'the JSON object in the answer is not valid JSON' };
}

/**
 * The [start, end) spans of the balanced `{…}` at the top level. Quotes count only inside an object:
 * prose around it may have apostrophes and unpaired quotes, which say nothing about JSON.
 */
function topLevelObjects(text: string): [number, number][] | 'unbalanced' {
  const spans: [number, number][] = [];
  let depth = 0;
  let start = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (depth === 0) {
      if (c === '{') {
        start = i;
        depth = 1;
      }
      continue;
    }
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth += 1;
    else if (c === '}' || c === ']') {
      depth -= 1;
      if (depth === 0) spans.push([start, i + 1]);
    }
  }
  return depth === 0 ? spans : 'unbalanced';
}
