// Starts the raw node:http baseline (raw-server.js) as a child, serving payloads captured from the service.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Children, Child } from './children.js';
import type { RawRoute } from './raw-server.js';

export interface RawPayload {
  path: string;
  contentType: string;
  body: Buffer;
  /** For requests with this Accept-Encoding only (absent: requests without one). */
  acceptEncoding?: string;
  contentEncoding?: string;
}

export interface RawHandle {
  baseUrl: string;
  child: Child;
}

const SERVER_PATH = join(import.meta.dirname, 'raw-server.js');

export async function startRawBaseline(children: Children, dir: string, payloads: RawPayload[]): Promise<RawHandle> {
  const routes: RawRoute[] = [];
  for (const [i, p] of payloads.entries()) {
    const file = join(dir, `raw-payload-${i}.bin`);
    await writeFile(file, p.body);
    routes.push({
      path: p.path,
      file,
      contentType: p.contentType,
      ...(p.acceptEncoding !== undefined ? { acceptEncoding: p.acceptEncoding } : {}),
      ...(p.contentEncoding !== undefined ? { contentEncoding: p.contentEncoding } : {}),
    });
  }
  const manifest = join(dir, 'raw-routes.json');
  await writeFile(manifest, JSON.stringify(routes));

  const child = children.spawn('raw server', process.execPath, [SERVER_PATH, manifest], {
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: { ...process.env, PORT: '0' },
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`raw server did not start:\n${child.output.toString()}`)), 10_000);
    child.process.once('message', (m: unknown) => {
      clearTimeout(timer);
      const port = typeof m === 'object' && m !== null && 'port' in m ? Number(m.port) : NaN;
      if (Number.isInteger(port) && port > 0) resolve(port);
      else reject(new Error(`raw server sent an unexpected message: ${JSON.stringify(m)}`));
    });
    void child.exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`raw server exited (${how}):\n${child.output.toString()}`));
    });
  });
  return { baseUrl: `http://127.0.0.1:${port}`, child };
}
