// A loopback TCP proxy a test can cut: every connection through it is destroyed at once, as a dropped network would.
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface CuttableProxy {
  /** The proxy's http://127.0.0.1:port address. */
  baseUrl: string;
  /** Connections opened through it so far. */
  readonly connections: number;
  /** Destroys every open connection (both sides); the proxy keeps accepting new ones. */
  cut(): void;
  close(): Promise<void>;
}

export async function startProxy(target: string): Promise<CuttableProxy> {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((client) => {
    connections++;
    const upstream = createConnection({ host: hostname, port: Number(port) });
    open.add(client);
    open.add(upstream);
    const drop = (): void => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy did not listen on a port');
  const cut = (): void => {
    for (const s of [...open]) s.destroy();
    open.clear();
  };
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    get connections() {
      return connections;
    },
    cut,
    close() {
      cut();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
