import { describe, expect, it } from 'vitest';
import { extractJsonObject } from '../../../src/analysis/llm/json-extract.js';

const OBJ = { action: 'skip', reason: 'nothing new {or} "quoted"' };
const J = JSON.stringify(OBJ);

describe('extractJsonObject accepts', () => {
  it.each([
    ['the content as JSON', J],
    ['with whitespace around', `\n  ${J}\n`],
    ['a ```json fence', `\`\`\`json\n${J}\n\`\`\``],
    ['a bare ``` fence', `\`\`\`\n${J}\n\`\`\``],
    ['a fence with a pretty-printed object', `\`\`\`json\n${JSON.stringify(OBJ, null, 2)}\n\`\`\`\n`],
    ['a <think> block first', `<think>The user wants {a decision}. Hmm, "quotes'.</think>\n${J}`],
    ['one object with prose around it', `Here is my decision: ${J} Hope it helps, it's my best "guess".`],
    ['one object in a fence inside prose', `Sure!\n\`\`\`json\n${J}\n\`\`\`\nThat's it.`],
    ['braces and escaped quotes inside strings', `Answer: {"action":"skip","reason":"a \\"}\\" here {"}`],
  ])('%s', (_name, content) => {
    const result = extractJsonObject(content);
    expect(result).not.toHaveProperty('error');
    expect(result).toHaveProperty('json.action', 'skip');
  });
});

describe('extractJsonObject rejects', () => {
  it.each([
    ['empty content', '   ', 'the answer is empty'],
    ['only a think block', '<think>hmm</think>', 'the answer is empty'],
    ['prose without an object', 'I would skip this one.', 'the answer holds no JSON object'],
    [
      'two objects: which one was meant?',
      `Either ${J} or {"action":"post","conviction":1,"text":"x"}`,
      'the answer holds 2 JSON objects, not one',
    ],
    [
      'an object that never closes',
      'Answer: {"action": "post", "conviction": 1.2',
      'the answer has a JSON object that never closes',
    ],
    ['an object that is not JSON', "Answer: {action: 'skip'}", 'the JSON object in the answer is not valid JSON'],
  ])('%s', (_name, content, error) => {
    expect(extractJsonObject(content)).toEqual({ error });
  });

  it('leaves judging the shape to the schema: a bare array or number is returned as parsed', () => {
    expect(extractJsonObject('[1, 2]')).toEqual({ json: [1, 2] });
    expect(extractJsonObject('42')).toEqual({ json: 42 });
  });
});
