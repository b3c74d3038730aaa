import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentDir } from '../../src/domain/agent-name.js';
import { UsageError } from '../../src/errors.js';

describe('--agent <name>', () => {
  it('is the dir agents/<name> below the default config dir', () => {
    expect(agentDir('/home/me/.config/prediction-agent', 'llm_2')).toBe(
      path.join('/home/me/.config/prediction-agent', 'agents', 'llm_2'),
    );
    expect(agentDir('/d', 'a'.repeat(32))).toBe(`/d/agents/${'a'.repeat(32)}`);
  });

  it.each(['', '.', '..', '../x', 'a/b', '-x', '_x', 'a b', 'é', 'a'.repeat(33), 'a\n'])(
    'refuses %j as a usage error',
    (name) => {
      expect(() => agentDir('/d', name)).toThrow(UsageError);
    },
  );
});
