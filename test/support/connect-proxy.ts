import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface RecordingProxy {
  url: string;
  /** The request head of every connection, before any tunnel: all the proxy ever reads in the clear. */
  heads: string[];
  /** host:port of every tunnel asked for. */
  tunnels: string[];
  close(): Promise<void>;
}

/**
 * A CONNECT proxy on loopback that records what it can read, then tunnels bytes it cannot (TLS) through.
 * `refuse` answers every CONNECT with that status instead, as a proxy that forbids the port would.
 */
export async function startRecordingProxy(options: { refuse?: number } = {}): Promise<RecordingProxy> {
  const heads: string[] = [];
  const tunnels: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      client.off('data', onData);
      heads.push(head.slice(0, end));
      const [method, target] = head.split(' ');
      if (method !== 'CONNECT' || !target)
        return void client.end('HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n');
      tunnels.push(target);
      if (options.refuse) return void client.end(`HTTP/1.1 ${options.refuse} Forbidden\r\nContent-Length: 0\r\n\r\n`);
      const [host, port] = [
        target.slice(0, target.lastIndexOf(':')),
        Number(target.slice(target.lastIndexOf(':') + 1)),
      ];
      const upstream = net.connect(port, host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        const rest = Buffer.from(head.slice(end + 4), 'latin1');
        if (rest.length) upstream.write(rest);
        client.pipe(upstream).pipe(client);
      });
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
    };
    client.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    heads,
    tunnels,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
