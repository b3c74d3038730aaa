import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorld, PROFILE_FLAGS, runAgent, type World } from './harness.js';
import { commandsIn, runPrinted } from './printed-command.js';

// Several agents, attacked as a user would: a hint that must act on the agent it names.

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function machine() {
  const w = await createWorld();
  world = w;
  const bin = path.join(w.home, 'bin');
  fs.mkdirSync(bin);
  const table = path.join(w.home, 'crontab.txt');
  fs.writeFileSync(
    path.join(bin, 'crontab'),
    `#!/bin/sh\nt='${table}'\ncase "$1" in\n  -l) [ -f "$t" ] || { echo "no crontab for me" >&2; exit 1; }; cat "$t";;\n  -) cat > "$t";;\n  *) exit 2;;\nesac\n`,
    { mode: 0o755 },
  );
  const env = { PATH: `${bin}:/usr/bin:/bin` };
  const agent = (args: string[]) => runAgent(args, w.home, { env });
  const register = (where: string[], name: string) =>
    agent([...where, 'register', '--base-url', w.sandbox.url, '--name', name, ...PROFILE_FLAGS]);
  return { w, env, agent, register };
}

describe('several agents, attacked', () => {
  it.each([
    ['poll', ['poll']],
    ['predict', ['predict', 't1']],
  ])(
    '%s on an agent never registered hints the register of that agent; pasted, it registers there',
    async (_name, args) => {
      const { w, env } = await machine();
      const result = await runAgent(['--agent', 'zz', ...args], w.home, { env });
      expect(result.code).toBe(3);
      const [hint] = commandsIn(result.stderr);
      expect(hint).toBe('agent --agent zz register');
      const pasted = await runPrinted(
        `${hint} --base-url ${w.sandbox.url} --name zz-agent ${PROFILE_FLAGS.join(' ')}`,
        { ...env, HOME: w.home },
      );
      expect(pasted.code).toBe(0);
      expect(fs.existsSync(path.join(w.configDir, 'agents', 'zz', 'state.json'))).toBe(true);
      expect(fs.existsSync(path.join(w.configDir, 'state.json'))).toBe(false);
    },
  );
});
