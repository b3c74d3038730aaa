import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunProgram } from '../../../src/context.js';
import { cronDaemon } from '../../../src/commands/doctor/cron-daemon.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A process table holding these pids and names. */
function table(processes: Record<number, string>): string {
  const proc = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-proc-'));
  dirs.push(proc);
  for (const [pid, name] of Object.entries(processes)) {
    fs.mkdirSync(path.join(proc, pid));
    fs.writeFileSync(path.join(proc, pid, 'comm'), `${name}\n`);
  }
  return proc;
}

const systemctl =
  (answer: string, missing = false): RunProgram =>
  async () => ({ status: answer === 'active' ? 0 : 3, stdout: answer ? `${answer}\n` : '', stderr: '', missing });

describe('whether a cron daemon runs', () => {
  it('a process named cron or crond is one', async () => {
    expect(await cronDaemon(table({ 1: 'init', 7: 'cron' }), systemctl('inactive'))).toBe('running');
    expect(await cronDaemon(table({ 1: 'init', 9: 'crond' }), systemctl('inactive'))).toBe('running');
  });

  it('none in a table that shows every process, and systemd not saying otherwise: stopped', async () => {
    expect(await cronDaemon(table({ 1: 'init', 7: 'sshd' }), systemctl('inactive'))).toBe('stopped');
    expect(await cronDaemon(table({ 1: 'init' }), systemctl('', true))).toBe('stopped');
  });

  it("systemd's cron unit, active, is one whatever the table shows", async () => {
    expect(await cronDaemon(table({ 1: 'init' }), systemctl('active'))).toBe('running');
  });

  it('a table that hides other users (no pid 1), or none at all, cannot tell', async () => {
    expect(await cronDaemon(table({ 4242: 'bash' }), systemctl('inactive'))).toBe('unknown');
    expect(await cronDaemon('/nonexistent/proc', systemctl('', true))).toBe('unknown');
  });
});
