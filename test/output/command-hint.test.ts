import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentCommand, nextAfterRegister, placed } from '../../src/output/command-hint.js';

describe('a command a hint names', () => {
  it('is the plain command for the default config dir', () => {
    expect(agentCommand({ configDir: '/home/me/.config/prediction-agent' }, 'schedule --install')).toBe(
      'agent schedule --install',
    );
    expect(agentCommand(undefined, 'config get llm.key-file')).toBe('agent config get llm.key-file');
  });

  it('names a chosen config dir, absolute and quoted for the shell', () => {
    expect(agentCommand({ configDir: '/srv/agent', configDirGiven: true }, 'poll --dry-run')).toBe(
      'agent --config-dir /srv/agent poll --dry-run',
    );
    expect(agentCommand({ configDir: "/srv/o'brien agent", configDirGiven: true }, 'poll')).toBe(
      `agent --config-dir '/srv/o'\\''brien agent' poll`,
    );
    expect(agentCommand({ configDir: 'rel', configDirGiven: true }, 'poll')).toBe(
      `agent --config-dir ${path.resolve('rel')} poll`,
    );
  });

  it('names an agent chosen with --agent by its name, not its long path', () => {
    const place = {
      configDir: '/home/me/.config/prediction-agent/agents/lexicon-2',
      configDirGiven: true,
      agentName: 'lexicon-2',
    };
    expect(agentCommand(place, 'schedule --install')).toBe('agent --agent lexicon-2 schedule --install');
    expect(nextAfterRegister(place)).toContain('"agent --agent lexicon-2 poll --dry-run"');
  });

  it('after register: look first, then schedule', () => {
    expect(nextAfterRegister({ configDir: '/srv/agent', configDirGiven: true })).toBe(
      'Next: "agent --config-dir /srv/agent poll --dry-run" shows what it would post; "agent --config-dir /srv/agent schedule --install" then polls every 5 minutes from cron.',
    );
  });

  it('a hint written without the agent gets its quoted commands placed; one already placed is kept', () => {
    const place = { configDir: '/x/agents/model', configDirGiven: true, agentName: 'model' };
    expect(placed('register again with "agent register --force" (the old state is kept)', place)).toBe(
      'register again with "agent --agent model register --force" (the old state is kept)',
    );
    expect(placed('run "agent --config-dir /srv/a register" first', place)).toBe(
      'run "agent --config-dir /srv/a register" first',
    );
    expect(placed('run "agent doctor"', { configDir: '/home/me/.config/prediction-agent' })).toBe('run "agent doctor"');
    expect(placed('run "agent doctor"', undefined)).toBe('run "agent doctor"');
  });
});
