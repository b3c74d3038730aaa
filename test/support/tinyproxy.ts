import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Whether Debian's tinyproxy is installed (.ci/run installs it; on a workstation it may not be). */
export const hasTinyproxy = spawnSync('tinyproxy', ['-v']).status === 0;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A real proxy, tinyproxy, on loopback, in the foreground, with a config of its own; its log is kept. */
export async function startTinyproxy(): Promise<{ url: string; log(): string; close(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-tinyproxy-'));
  const port = await freePort();
  const logFile = path.join(dir, 'tinyproxy.log');
  // No ConnectPort line: CONNECT to any port (the test service is not on 443). Root drops to nobody.
  const user = process.getuid?.() === 0 ? 'User nobody\nGroup nogroup\n' : '';
  fs.writeFileSync(
    path.join(dir, 'tinyproxy.conf'),
    `${user}Port ${port}\nListen 127.0.0.1\nTimeout 30\nAllow 127.0.0.1\nLogFile "${logFile}"\nLogLevel Connect\nMaxClients 20\n`,
  );
  fs.chmodSync(dir, 0o777);
  const child = spawn('tinyproxy', ['-d', '-c', path.join(dir, 'tinyproxy.conf')], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net
        .connect(port, '127.0.0.1', () => resolve(socket.end() && true))
        .on('error', () => resolve(false));
    });
    if (up) break;
    if (i > 100 || child.exitCode !== null) throw new Error(`tinyproxy did not start (exit ${child.exitCode})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    log: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : ''),
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
