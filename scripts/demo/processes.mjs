// The demo's child processes (the sandbox, each run of `agent`) and its one HTTP read, kept track of so
// that the demo can stop them all, whatever way it ends.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/agent.cjs', import.meta.url));
const running = new Set();

/** Starts `agent sandbox` and reads its address from the first line of its stdout (docs/cli.md). */
export function startSandbox(args, env) {
  const child = spawn(process.execPath, [BIN, 'sandbox', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const sandbox = { child, url: undefined, stderr: '', exited: false };
  child.stderr.setEncoding('utf8').on('data', (chunk) => (sandbox.stderr += chunk));
  child.on('exit', () => (sandbox.exited = true));
  const ready = new Promise((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error('the sandbox did not start within 20 s')), 20_000);
    child.on('error', reject);
    child.on('exit', (code) =>
      reject(new Error(`the sandbox exited (${code}) before listening: ${sandbox.stderr.trim()}`)),
    );
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
      const match = /^Sandbox listening on (http:\/\/\S+)\r?\n/.exec(stdout);
      if (match && !sandbox.url) {
        clearTimeout(timer);
        sandbox.url = match[1];
        resolve(sandbox);
      }
    });
  });
  return { sandbox, ready };
}

/** Runs the built `agent` as cron would: no terminal, stdin closed, only the environment given. */
export function runAgent(args, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', (error) => {
      running.delete(child);
      resolve({ code: null, stdout, stderr: error.message });
    });
    child.on('close', (code) => {
      running.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Ends the runs of `agent` still going, then the sandbox (SIGINT, as a person would; SIGKILL if it hangs). */
export async function stopAll(sandbox) {
  for (const child of running) child.kill('SIGTERM');
  await Promise.all([...running].map((child) => exited(child, 5000)));
  if (!sandbox) return;
  sandbox.child.kill('SIGINT');
  if (!(await exited(sandbox.child, 5000))) {
    sandbox.child.kill('SIGKILL');
    await exited(sandbox.child, 5000);
  }
}

function exited(child, ms) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** GET /thread/:id of the interface, with the agent's key, as the agent itself reads a thread. */
export function getThread(baseUrl, apiKey, id) {
  return new Promise((resolve, reject) => {
    const url = `${baseUrl}/thread/${encodeURIComponent(id)}`;
    const req = http.get(url, { headers: { 'x-api-key': apiKey }, agent: false, timeout: 5000 }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk) => (body += chunk));
      res.on('end', () => {
        const doc = parseJson(body);
        if (res.statusCode !== 200 || !doc) return reject(new Error(`GET /thread/${id}: HTTP ${res.statusCode}`));
        // The interface may wrap a thread as {"thread": {...}}.
        resolve(doc.thread && typeof doc.thread === 'object' ? doc.thread : doc);
      });
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
  });
}

export function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
