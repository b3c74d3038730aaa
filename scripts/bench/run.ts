import { spawn } from 'node:child_process';

/** The environment of every measured process: the caller's, without NODE_EXTRA_CA_CERTS (+90 ms on Node 20). */
export function benchEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

export interface Timed {
  ms: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Wall time of one process, asynchronously so that an in-process sandbox can answer it meanwhile. */
export function timed(args: string[], env: NodeJS.ProcessEnv): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: Number(process.hrtime.bigint() - start) / 1e6, code, stdout, stderr }));
  });
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const at = (i: number) => sorted[i] ?? Number.NaN;
  return sorted.length % 2 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
}

/**
 * The command's median and the baseline's median over `runs` runs each, taken in alternation so that the
 * machine's drift (±10 ms here) moves both alike; one warm-up run of each is not counted (file cache).
 */
export async function versusBaseline(
  args: string[],
  env: NodeJS.ProcessEnv,
  runs: number,
  check?: (t: Timed) => void,
): Promise<{ ms: number; baselineMs: number; ratio: number }> {
  const baselineArgs = ['-e', '0'];
  await timed(baselineArgs, env);
  await timed(args, env);
  const times: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < runs; i++) {
    baseline.push((await timed(baselineArgs, env)).ms);
    const t = await timed(args, env);
    check?.(t);
    times.push(t.ms);
  }
  const ms = median(times);
  const baselineMs = median(baseline);
  return { ms, baselineMs, ratio: ms / baselineMs };
}
