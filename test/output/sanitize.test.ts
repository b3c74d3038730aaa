import { describe, expect, it } from 'vitest';
import { maskKey, oneLine, sanitize, shownPath } from '../../src/output/sanitize.js';

const ESC = '\u001b';
const BEL = '\u0007';

describe('sanitize strips what a terminal would act on (hostile-input)', () => {
  const cases: Array<[what: string, input: string, output: string]> = [
    ['plain text', 'Bullish on c/bitcoin: +2.5%', 'Bullish on c/bitcoin: +2.5%'],
    ['SGR colour', `${ESC}[31mred${ESC}[0m`, 'red'],
    ['CSI with private parameters', `${ESC}[?25lhidden cursor${ESC}[?1049h`, 'hidden cursor'],
    ['cursor moves and clears', `${ESC}[2J${ESC}[10;20Hx${ESC}[K`, 'x'],
    ['OSC title ended by BEL', `${ESC}]0;pwned${BEL}after`, 'after'],
    ['OSC ended by ST', `${ESC}]2;pwned${ESC}\\after`, 'after'],
    ['OSC 8 hyperlink', `${ESC}]8;;https://evil.example${BEL}click${ESC}]8;;${BEL}`, 'click'],
    ['OSC 52 clipboard write', `${ESC}]52;c;Y3VybCBldmlsIHwgc2g=${BEL}ok`, 'ok'],
    ['an unterminated OSC leaves no ESC', `${ESC}]0;title`, '0;title'],
    ['two-byte escapes, their final byte included', `${ESC}Ma${ESC}7b${ESC}c`, 'ab'],
    ['a charset designation (an intermediate byte)', `${ESC}(0x${ESC}(B`, 'x'],
    ['8-bit CSI (C1), with its parameters', '\u009b31mred', 'red'],
    ['8-bit OSC (C1), with its payload', '\u009d0;t\u0007x', 'x'],
    ['DCS with its payload (sixel, DECRQSS)', `a${ESC}Pq#0;2;0;0;0#0~~@@${ESC}\\b${ESC}P$qm${ESC}\\c`, 'abc'],
    ['APC with its payload', `a${ESC}_Gf=100;AAAA${ESC}\\b`, 'ab'],
    ['PM with its payload', `a${ESC}^private message${ESC}\\b`, 'ab'],
    ['SOS with its payload', `a${ESC}Xstring${ESC}\\b`, 'ab'],
    [
      '8-bit DCS, SOS, PM, APC ended by the 8-bit ST',
      'a\u0090dcs\u009cb\u0098sos\u009cc\u009epm\u009cd\u009fapc\u009ce',
      'abcde',
    ],
    ['an unterminated DCS loses only its introducer', `a${ESC}Pq#0`, 'aq#0'],
    ['NEL and other C1', 'a\u0085b\u0090c\u009fd', 'abcd'],
    ['C0 controls', 'a\u0000b\u0007c\u0008d\u000be\u000cf\u000dg\u001fh', 'abcdefgh'],
    ['DEL', 'a\u007fb', 'ab'],
    ['bidi overrides and isolates', 'a\u202eb\u2066c\u2069d', 'abcd'],
    ['zero-width characters', 'a\u200bb\u200dc\u200fd', 'abcd'],
    ['tabs and newlines stay', 'a\tb\nc', 'a\tb\nc'],
    ['ordinary Unicode stays', 'é 🚀 日本', 'é 🚀 日本'],
  ];
  it.each(cases)('%s', (_what, input, output) => {
    expect(sanitize(input)).toBe(output);
    expect(sanitize(input)).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });
});

describe('oneLine', () => {
  it.each([
    ['folds line breaks and runs of space', 'a\r\n  b\n\tc ', 300, 'a b c'],
    ['strips escapes first', `${ESC}[1mbold${ESC}[0m\nnext`, 300, 'bold next'],
    ['keeps text at the limit', 'abcde', 5, 'abcde'],
    ['cuts with an ellipsis', 'abcdef', 5, 'abcd…'],
    ['counts code points, never splitting one', '🚀🚀🚀🚀🚀🚀', 4, '🚀🚀🚀…'],
    ['empty', '', 10, ''],
  ])('%s', (_what, input, max, output) => {
    expect(oneLine(input, max)).toBe(output);
  });
});

describe('maskKey shows enough to recognise a key, never enough to use it (key-never-shown)', () => {
  it.each([
    ['hive_0123456789abcdefWXYZ', 'hive_…WXYZ'],
    ['sk_live_0123456789abcdef', 'sk_…cdef'],
    ['abcdefghijklmnop', '…mnop'],
    ['hive_short', 'hive_…'],
    ['hive_0123456789a', 'hive_…'],
    ['hive_0123456789ab', 'hive_…89ab'],
    ['short', '…'],
    ['a_very_long_prefix_0123456789abcdef', 'a_…cdef'],
    ['averylongprefix_0123456789abcdef', '…cdef'],
    ['', '…'],
  ])('%j → %j', (key, masked) => {
    expect(maskKey(key)).toBe(masked);
  });
});

describe('shownPath: a path in a message shows exactly where it is', () => {
  it.each([
    ['/home/me/.config/prediction-agent', '/home/me/.config/prediction-agent'],
    ['/tmp/my agent ', "'/tmp/my agent '"],
    ["/tmp/it's", "'/tmp/it'\\''s'"],
    ['/tmp/a\nb', '"/tmp/a\\nb"'],
    ['~/x', "'~/x'"],
    ['', "''"],
  ])('%j is shown as %s', (path, shown) => {
    expect(shownPath(path)).toBe(shown);
  });
});
