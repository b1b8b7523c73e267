// The test helpers' service start: a port taken by another server fails the start, instead of that server answering for ours (the CI failure of 2026-11-27).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startChild, startListening, waitReady } from './helpers/child-service.js';

const keys = { admin: 'helper-admin', demo: 'helper-demo' };

describe('test helpers: a service started in a child process', () => {
  it('on a port another server holds, the start fails; on port 0 it listens where it says, and answers itself', async () => {
    // A stranger that answers every probe 200, as another test file's service would.
    const stranger = createServer((_req, res) => res.end('{"status":"ok"}'));
    await new Promise<void>((r) => stranger.listen(0, '127.0.0.1', r));
    const taken = (stranger.address() as { port: number }).port;
    const dataDir = await mkdtemp(join(tmpdir(), 'helper-child-'));
    try {
      // The old way: start on a picked port, then wait for /readyz there. The stranger answers it,
      // though our service died of the taken port.
      const old = startChild(dataDir, taken, keys);
      await waitReady(`http://127.0.0.1:${taken}`);
      await new Promise((r) => (old.exitCode !== null ? r(null) : old.once('exit', r)));
      assert.notEqual(old.exitCode, 0, 'ours exited, and the wait was none the wiser');
      await assert.rejects(startListening(dataDir, taken, keys), /exited \(code \d+\) before listening/);
      const ours = await startListening(dataDir, 0, keys);
      try {
        assert.notEqual(ours.port, taken);
        const res = await fetch(`${ours.base}/v1/events?limit=1`, { headers: { 'x-api-key': keys.demo } });
        assert.equal(res.status, 200);
        assert.deepEqual(((await res.json()) as { events: unknown[] }).events, []);
      } finally {
        ours.child.kill('SIGKILL');
      }
    } finally {
      stranger.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
