// A TCP proxy on loopback that a test can stall: bytes stop flowing both ways (a frozen server, a network that holds packets) until it resumes.
import { connect, createServer, type Server, type Socket } from 'node:net';

interface Pair {
  client: Socket;
  upstream: Socket;
  /** Bytes read while stalled, per direction, forwarded in order on resume. */
  held: { up: Buffer[]; down: Buffer[] };
}

/**
 * Stalling holds every connection open and answers nothing, as a server stopped mid-flight would:
 * nothing is refused or closed (that would be a different fault), new connections are accepted
 * and held too. On resume everything held is delivered, in order, and the flow goes on.
 */
export class StallProxy {
  private stalled = false;
  private readonly pairs = new Set<Pair>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetPort: number, targetHost = '127.0.0.1'): Promise<StallProxy> {
    let proxy: StallProxy | null = null;
    const server = createServer((client) => proxy?.accept(client, targetPort, targetHost));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    proxy = new StallProxy(server, typeof address === 'object' && address !== null ? address.port : 0);
    return proxy;
  }

  /** Whether bytes are held now. */
  get isStalled(): boolean {
    return this.stalled;
  }

  stall(): void {
    this.stalled = true;
  }

  resume(): void {
    this.stalled = false;
    for (const p of this.pairs) {
      for (const chunk of p.held.up.splice(0)) p.upstream.write(chunk);
      for (const chunk of p.held.down.splice(0)) p.client.write(chunk);
      p.client.resume();
      p.upstream.resume();
    }
  }

  async close(): Promise<void> {
    for (const p of this.pairs) {
      p.client.destroy();
      p.upstream.destroy();
    }
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket, port: number, host: string): void {
    const upstream = connect(port, host);
    const pair: Pair = { client, upstream, held: { up: [], down: [] } };
    this.pairs.add(pair);
    const forward = (from: Socket, to: Socket, held: Buffer[]) => (chunk: Buffer) => {
      if (this.stalled) {
        // Read no more until resume: what the kernel buffers stays there, as on a frozen peer.
        from.pause();
        held.push(chunk);
        return;
      }
      to.write(chunk);
    };
    client.on('data', forward(client, upstream, pair.held.up));
    upstream.on('data', forward(upstream, client, pair.held.down));
    const end = (): void => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  }
}
