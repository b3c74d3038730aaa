import { describe, expect, it } from 'vitest';
import { parseCompletion } from '../../../src/analysis/llm/answer.js';
import { AnalyzerError } from '../../../src/errors.js';
import { completion } from '../../support/fake-llm.js';

const WHO = 'm at http://127.0.0.1:1';
const keep = (text: string) => text;
const parse = (body: unknown, scrub = keep) =>
  parseCompletion(typeof body === 'string' ? body : JSON.stringify(body), 'application/json', WHO, scrub);

function error(body: unknown, scrub = keep): AnalyzerError {
  try {
    parse(body, scrub);
  } catch (e) {
    expect(e).toBeInstanceOf(AnalyzerError);
    return e as AnalyzerError;
  }
  throw new Error('expected parseCompletion to fail');
}

describe('parseCompletion', () => {
  it('returns a post with its conviction and text, and the tokens used', () => {
    const body = completion(
      JSON.stringify({
        action: 'post',
        conviction: -0.8,
        text: 'Bearish: unlock ahead.',
        reason: 'unlock',
        extra: true,
      }),
    );
    expect(parse(body)).toEqual({
      output: { kind: 'decision', action: 'post', conviction: -0.8, text: 'Bearish: unlock ahead.' },
      tokens: 440,
    });
  });

  it('returns a skip with its reason, the reason being optional', () => {
    expect(parse(completion('{"action":"skip","conviction":0,"text":"","reason":"stale news"}')).output).toEqual({
      kind: 'decision',
      action: 'skip',
      reason: 'stale news',
    });
    expect(parse(completion('{"action":"skip"}')).output).toEqual({ kind: 'decision', action: 'skip', reason: '' });
  });

  it('reads content given as a list of text parts', () => {
    const body = {
      choices: [
        {
          message: {
            content: [
              { type: 'text', text: '{"action":' },
              { type: 'text', text: '"skip"}' },
            ],
          },
        },
      ],
    };
    expect(parse(body).output).toMatchObject({ action: 'skip' });
  });

  it('does without usage, and ignores a strange one', () => {
    expect(parse({ ...completion('{"action":"skip"}'), usage: undefined })).not.toHaveProperty('tokens');
    expect(parse({ ...completion('{"action":"skip"}'), usage: { total_tokens: 'many' } })).not.toHaveProperty('tokens');
  });

  it.each([
    ['a body that is not a completion', { choices: 'none' }, 'answered with JSON that is not a chat completion'],
    [
      'a content filter stop',
      completion(null, { finish_reason: 'content_filter' }),
      'refused: its content filter stopped the answer',
    ],
    ['content null', completion(null), 'answered with empty content'],
    [
      'a post without a text',
      completion('{"action":"post","conviction":1}'),
      'answered with JSON that breaks the decision schema (text: must be a string)',
    ],
    [
      'an infinite conviction',
      completion('{"action":"post","conviction":1e999,"text":"x"}'),
      'answered with JSON that breaks the decision schema (conviction: must be a number)',
    ],
    [
      'a signal instead of a decision',
      completion('{"strength":0.5,"evidence":["x"]}'),
      'answered with JSON that breaks the decision schema (action: must be "post" or "skip")',
    ],
    [
      'an array',
      completion('[{"action":"skip"}]'),
      'answered with JSON that breaks the decision schema (action: must be "post" or "skip")',
    ],
    [
      'two objects',
      completion('{"action":"skip"} {"action":"post"}'),
      'did not answer with a decision: the answer holds 2 JSON objects, not one',
    ],
  ])('rejects %s', (_name, body, message) => {
    expect(error(body).message).toBe(`${WHO} ${message}`);
  });

  it('quotes server text only after the key is scrubbed from it', () => {
    const scrub = (text: string) => text.split('sk-secret').join('…');
    expect(error({ error: { message: 'bad key sk-secret' } }, scrub).message).toBe(
      `${WHO} answered with an error: bad key …`,
    );
    expect(error(completion(null, { refusal: 'no, sk-secret' }), scrub).message).toBe(`${WHO} refused: no, …`);
    expect(error('oops sk-secret', scrub).message).toBe(`${WHO} answered with something that is not JSON: oops …`);
  });
});
