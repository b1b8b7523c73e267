// An oversized body's answer reaches a client still streaming it (lingering close, RFC 9112 9.6), on every POST route, fast or slow writer.
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { LINGER } from '../../src/api/lingering-close.js';
import { ADMIN_KEY, DEMO_KEY, startService, type TestService } from '../helpers/service.js';

const MiB = 1024 * 1024;

interface Sent {
  status: number | null;
  body: string;
  /** Bytes of the body the client had written when the answer arrived. */
  writtenAtAnswer: number;
  /** Bytes the client wrote in all before it stopped (the whole body, or until the connection ended). */
  written: number;
  /** The client's error, if the connection ended under it (after the answer, this is expected). */
  error: string | null;
  /** The answer's Connection header. */
  connection: string | undefined;
}

/**
 * POSTs `total` bytes with Content-Length through Node's own http.request, `chunk` bytes at a
 * time with `pauseMs` between writes (0: as fast as the socket takes them), and resolves once
 * the client has stopped writing and the answer (if any) is read. `busyMs`: after its first
 * write the client does not look at its socket for that long (a busy or paused process, or a
 * quiet machine's timing: the answer arrives while the kernel is still sending the body).
 */
function post(
  base: string,
  path: string,
  headers: Record<string, string>,
  total: number,
  chunk: number,
  pauseMs: number,
  busyMs = 0,
  agent: Agent | false = false,
  content: Buffer = Buffer.alloc(chunk, 0x20), // spaces: an oversized body is never valid anyway
): Promise<Sent> {
  const url = new URL(path, base);
  return new Promise((resolve) => {
    const out: Sent = { status: null, body: '', writtenAtAnswer: -1, written: 0, error: null, connection: undefined };
    let answered = false;
    let stopped = false;
    let settled = false;
    const settle = (): void => {
      if (settled || !stopped || (out.error === null && !answered)) return;
      settled = true;
      resolve(out);
    };
    const req = request({ hostname: url.hostname, port: url.port, path, method: 'POST', agent }, (res) => {
      out.status = res.statusCode ?? null;
      out.connection = res.headers.connection;
      out.writtenAtAnswer = out.written;
      res.setEncoding('utf8');
      res.on('data', (c: string) => (out.body += c));
      res.on('end', () => {
        answered = true;
        settle();
      });
    });
    for (const [k, v] of Object.entries({ ...headers, 'content-length': String(total) })) req.setHeader(k, v);
    // Node's client closes its socket when the server ends its side (after the answer): it stops sending.
    req.on('close', () => {
      stopped = true;
      settle();
    });
    req.on('error', (e: NodeJS.ErrnoException) => {
      out.error = e.code ?? e.message;
      stopped = true;
      settle();
    });
    const piece = content;
    const write = (): void => {
      if (out.error !== null) return;
      while (out.written < total) {
        const n = Math.min(chunk, total - out.written);
        out.written += n;
        const more = req.write(n === chunk ? piece : piece.subarray(0, n));
        if (busyMs > 0 && out.written === n) {
          const until = Date.now() + busyMs;
          while (Date.now() < until); // the event loop is held: nothing is read meanwhile
        }
        if (pauseMs > 0) return void setTimeout(write, pauseMs);
        if (!more) return void req.once('drain', write);
      }
      req.end(() => {
        stopped = true;
        settle();
      });
    };
    write();
  });
}

const ROUTES: Array<[string, string, Record<string, string>]> = [
  ['bet check', '/v1/bets/check', { 'content-type': 'application/json', 'x-api-key': DEMO_KEY }],
  ['batch', '/v1/events/batch', { 'content-type': 'application/json', 'x-api-key': DEMO_KEY }],
  ['admin feed (JSON)', '/admin/v1/feed', { 'content-type': 'application/json', 'x-admin-key': ADMIN_KEY }],
  ['admin feed (NDJSON)', '/admin/v1/feed', { 'content-type': 'application/x-ndjson', 'x-admin-key': ADMIN_KEY }],
];

/** The 400 and its JSON error arrived; `clean`: and no error (reset, EPIPE) came to the client while it sent. */
function assertAnswered(r: Sent, what: string, clean = false): void {
  assert.equal(r.status, 400, `${what}: ${JSON.stringify(r)}`);
  const body = JSON.parse(r.body) as { error: string; message: string };
  assert.equal(body.error, 'bad_request', what);
  assert.match(body.message, /too large/, what);
  assert.equal(r.connection, 'close', what);
  if (clean) assert.equal(r.error, null, `${what}: the connection was not reset under the client`);
}

describe('an oversized body is answered, and the answer reaches the client', () => {
  let svc: TestService;
  let base: string;
  before(async () => {
    // The NDJSON feed's own limit (64 MiB by default) brought down to the JSON routes' 1 MiB.
    svc = await startService({ env: { FEED_BODY_LIMIT_BYTES: String(MiB) } });
    base = await svc.service.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => svc.close());

  for (const [name, path, headers] of ROUTES) {
    it(`${name}: 12 MiB streamed with Content-Length gets its 400 and JSON error`, async () => {
      for (let i = 0; i < 3; i++)
        assertAnswered(await post(base, path, headers, 12 * MiB, 64 * 1024, 0), `${name} #${i}`, true);
    });
  }

  it('a client that looks at its socket only after the answer came still reads it, on every route', async () => {
    for (const [name, path, headers] of ROUTES) {
      for (let i = 0; i < 3; i++)
        assertAnswered(await post(base, path, headers, 12 * MiB, 12 * MiB, 0, 300), `${name} #${i}`, true);
    }
  });

  it('a slow writer (16 KiB every 5 ms) gets the answer too, on every route', async () => {
    for (const [name, path, headers] of ROUTES) {
      const r = await post(base, path, headers, 12 * MiB, 16 * 1024, 5);
      assertAnswered(r, name);
      assert.ok(r.writtenAtAnswer < 12 * MiB, `${name}: answered while the client was still sending`);
    }
  });

  it('a client that never stops sending (it ignores the end of the answer) is cut after the lingering bound', async () => {
    const url = new URL(base);
    const r = await new Promise<{ answer: string; written: number; closed: boolean }>((resolve) => {
      const out = { answer: '', written: 0, closed: false };
      const socket = connect({ host: url.hostname, port: Number(url.port), allowHalfOpen: true });
      const piece = Buffer.alloc(256 * 1024, 0x20);
      const write = (): void => {
        while (!socket.destroyed && out.written < 1024 * MiB) {
          out.written += piece.length;
          if (!socket.write(piece)) return void socket.once('drain', write);
        }
      };
      socket.on('connect', () => {
        socket.write(
          `POST /v1/events/batch HTTP/1.1\r\nHost: x\r\nX-API-Key: ${DEMO_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${1024 * MiB}\r\n\r\n`,
        );
        write();
      });
      socket.setEncoding('utf8');
      socket.on('data', (c: string) => (out.answer += c));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        out.closed = true;
        resolve(out);
      });
    });
    assert.match(r.answer, /^HTTP\/1\.1 400 /);
    assert.match(r.answer, /connection: close/i);
    assert.match(r.answer, /"error":"bad_request"/);
    assert.ok(r.closed, 'the service closed the connection');
    assert.ok(
      r.written < 1024 * MiB,
      `cut before the declared GiB (wrote ${r.written}; bound ${LINGER.bytes} bytes or ${LINGER.ms} ms)`,
    );
  });

  it('a body within the limit still keeps its connection (no lingering close)', async () => {
    const agent = new Agent({ keepAlive: true });
    const body = Buffer.from('{"ids":"xxxxxx"}');
    const r = await post(base, '/v1/events/batch', ROUTES[1]![2], body.length, body.length, 0, 0, agent, body);
    agent.destroy();
    assert.equal(r.status, 400, 'ids is no array');
    assert.equal(r.error, null);
    assert.notEqual(r.connection, 'close', 'a body read in full leaves the connection open for the next request');
  });
});
