import { describe, expect, it } from 'vitest';
import { errorBodyText } from '../../src/http/error-body.js';

describe('errorBodyText', () => {
  const cases: Array<[what: string, body: string, type: string, text: string]> = [
    ['empty', '', '', ''],
    ['blank', ' \n\t ', 'application/json', ''],
    ['{message}', '{"message":"bad name"}', 'application/json', 'bad name'],
    ['{message} without a JSON type', '{"message":"bad name"}', 'text/plain', 'bad name'],
    ['{message} array', '{"message":["a","b",""]}', '', 'a; b'],
    ['{error} string', '{"error":"Not Found"}', '', 'Not Found'],
    ['{error} object', '{"error":{"code":42,"message":"locked"}}', '', 'locked'],
    ['{error_description}', '{"error":"x","error_description":"longer"}', '', 'longer'],
    ['{detail}', '{"detail":"FastAPI says"}', '', 'FastAPI says'],
    ['{errors} array of objects', '{"errors":[{"msg":"one"},{"message":"two"}]}', '', 'one; two'],
    ['a JSON string', '"just words"', 'application/json', 'just words'],
    ['a number', '{"message":404}', '', '404'],
    ['nothing known: the JSON as text', '{"status":"fail"}', '', '{"status":"fail"}'],
    [
      'deep nesting stops',
      '{"error":{"error":{"error":{"error":{"error":"deep"}}}}}',
      '',
      '{"error":{"error":{"error":{"error":{"error":"deep"}}}}}',
    ],
    ['broken JSON', '{"message":', 'application/json', '{"message":'],
    ['plain text over lines', 'line one\r\n\tline two\n', 'text/plain', 'line one line two'],
    [
      'HTML title',
      '<html><head><title>503 Service Unavailable</title></head><body>x</body></html>',
      'text/html',
      '503 Service Unavailable',
    ],
    [
      'HTML without title',
      '<!DOCTYPE html><body><h1>Oops</h1><script>var a = "<b>";</script><p>Try&nbsp;later &amp; again</p></body>',
      '',
      'Oops Try later & again',
    ],
    ['HTML by content type only', '<h1>Gateway</h1> timeout', 'text/html; charset=utf-8', 'Gateway timeout'],
    ['XML', '<?xml version="1.0"?><Error><Message>denied</Message></Error>', '', 'denied'],
    ['entities decoded once', '<html><title>a &amp;lt; b &lt; c</title></html>', '', 'a &lt; b < c'],
    [
      'escapes and controls',
      '{"message":"\\u001b[1mbold\\u001b[0m\\u0000 \\u001b]0;title\\u0007text\\u009b2J\\u202eevil"}',
      '',
      'bold textevil',
    ],
    ['escapes in the HTML title', '<title>\u001b[31mred\u001b[0m</title>', 'text/html', 'red'],
  ];
  it.each(cases)('%s', (_what, body, type, text) => {
    expect(errorBodyText(body, type)).toBe(text);
  });

  it('is one line of at most 200 characters whatever the size', () => {
    const text = errorBodyText(`${'word '.repeat(10_000)}\n`.repeat(3), 'text/plain');
    expect(text).not.toContain('\n');
    expect(Array.from(text)).toHaveLength(200);
    expect(text.endsWith('…')).toBe(true);
  });
});
