import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { BIN, runAgent } from './harness.js';

const homes: string[] = [];
afterEach(() => homes.splice(0).forEach((home) => fs.rmSync(home, { recursive: true, force: true })));

function home(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-sandbox-cmd-'));
  homes.push(dir);
  return dir;
}

it('prints its address first, serves the interface, and exits 0 on SIGTERM', async () => {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--seed', '7'], {
    env: { HOME: home(), PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const firstLine = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.on('exit', (code) => reject(new Error(`exited ${code} before printing its address`)));
  });
  expect(firstLine).toMatch(/^Sandbox listening on http:\/\/127\.0\.0\.1:\d+$/);
  const url = firstLine.split(' ').at(-1)!;
  const answer = await fetch(`${url}/thread`);
  expect(answer.status).toBe(401);
  await answer.text();
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  await expect(fetch(`${url}/thread`)).rejects.toThrow();
});

it.each([[['--speed', 'fast']], [['--port', '70000']], [['--rate', '-1']]])('refuses %j with exit 2', async (flags) => {
  const result = await runAgent(['sandbox', ...flags], home());
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
});
