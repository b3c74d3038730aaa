import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readKeyFile } from '../../src/settings/key-file.js';

describe('an LLM key file that cannot be read', () => {
  it('is named when the setting is a path', () => {
    const missing = path.join(os.tmpdir(), 'no-such-agent-llm.key');
    expect(() => readKeyFile(missing)).toThrow(
      expect.objectContaining({ name: 'UsageError', message: `cannot read the LLM key file ${missing} (ENOENT)` }),
    );
  });

  it.each([
    ['a key as it was pasted into config.json by hand', 'sk-pasted-key-0123456789'],
    ['a key with a slash, made absolute by config set', path.join(process.cwd(), 'sk-proj-AbC/dEf0123456789')],
  ])('is not named when the setting is %s', (_what, setting) => {
    expect(() => readKeyFile(setting)).toThrow(
      expect.objectContaining({ name: 'UsageError', message: 'cannot read the LLM key file (ENOENT)' }),
    );
  });
});
