// docs/deploy/nginx.conf, run as written on loopback in front of a cluster: reads spread, feed finds the leader, failover.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  CLUSTER_ADMIN_KEY,
  CLUSTER_DEMO_KEY,
  clusterSkip,
  freePort,
  startCluster,
  type Cluster,
} from '../helpers/cluster.js';

const NGINX = '/usr/sbin/nginx';
const skip = existsSync(NGINX) ? await clusterSkip() : `no nginx at ${NGINX} (apt-get install nginx to run this)`;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The documented config with this cluster's addresses, wrapped in a main config for a throwaway prefix. */
export function renderNginxConfig(snippet: string, cluster: Cluster, port: number, prefix: string): string {
  let api = 0;
  let pipeline = 0;
  const body = snippet
    .replace(/server 10\.0\.0\.1\d:3000/g, () => `server 127.0.0.1:${cluster.api[api++]?.port}`)
    .replace(/server 10\.0\.0\.2\d:3000/g, () => `server 127.0.0.1:${cluster.pipeline[pipeline++]?.port}`)
    .replace(/listen 80;/, `listen 127.0.0.1:${port};`);
  assert.equal(api, cluster.api.length, 'one upstream server per API node');
  assert.equal(pipeline, cluster.pipeline.length, 'one upstream server per pipeline node');
  return `daemon off;
master_process off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
${body}
}
`;
}

describe('nginx in front of the cluster (docs/deploy/nginx.conf)', { skip }, () => {
  let cluster: Cluster;
  let nginx: ChildProcess;
  let dir: string;
  let front: string;

  const feed = (lines: object[]): Promise<Response> =>
    fetch(`${front}/admin/v1/feed`, {
      method: 'POST',
      headers: { 'x-admin-key': CLUSTER_ADMIN_KEY, 'content-type': 'application/x-ndjson' },
      body: lines.map((l) => JSON.stringify(l)).join('\n'),
    });
  const get = (path: string): Promise<Response> =>
    fetch(`${front}${path}`, { headers: { 'x-api-key': CLUSTER_DEMO_KEY } });
  const fixture = (id: string): object => ({
    type: 'fixture',
    event_id: id,
    sport: 'soccer',
    league: { slug: 'nginx', name: 'Nginx League', country: 'Testland' },
    home_team: `${id} Home`,
    away_team: `${id} Away`,
    start_time: new Date(Date.now() + 3_600_000).toISOString(),
  });

  before(async () => {
    cluster = await startCluster();
    dir = await mkdtemp(join(tmpdir(), 'nginx-test-'));
    const port = await freePort();
    const snippet = await readFile(join(process.cwd(), 'docs/deploy/nginx.conf'), 'utf8');
    const conf = join(dir, 'nginx.conf');
    await writeFile(conf, renderNginxConfig(snippet, cluster, port, dir));
    nginx = spawn(NGINX, ['-p', dir, '-e', join(dir, 'error.log'), '-c', conf], { stdio: 'ignore' });
    front = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 200; i++) {
      try {
        const res = await fetch(`${front}/livez`);
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await sleep(25);
    }
    throw new Error(`nginx did not start: ${await readFile(join(dir, 'error.log'), 'utf8').catch(() => '')}`);
  });

  after(async () => {
    nginx?.kill('SIGTERM');
    await cluster?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('reads through nginx are spread over both API nodes', async () => {
    for (let i = 0; i < 20; i++) assert.equal((await get('/v1/sports')).status, 200);
    for (const node of cluster.api) {
      const metrics = await (
        await fetch(`${node.base}/metrics`, { headers: { 'x-admin-key': CLUSTER_ADMIN_KEY } })
      ).text();
      assert.match(metrics, /http_requests_total\{route="\/v1\/sports",method="GET",status="200"\} [1-9]/, node.base);
    }
  });

  it('feed through nginx reaches the leader whichever candidate nginx tries first', async () => {
    for (let i = 0; i < 6; i++) {
      const res = await feed([fixture(`n${i}`)]);
      assert.equal(res.status, 200, await res.text());
    }
    for (let i = 0; i < 100; i++) {
      if ((await get('/v1/events/n5')).status === 200) return;
      await sleep(10);
    }
    assert.fail('n5 was not served through nginx');
  });

  it('after kill -9 of the leader, feed through nginx is taken again within 5 s', async () => {
    const leader = await cluster.leader();
    leader.child.kill('SIGKILL');
    const t0 = Date.now();
    let status = 0;
    while (Date.now() - t0 < 5000) {
      status = (await feed([fixture('after-failover')])).status;
      if (status === 200) break;
      await sleep(50);
    }
    assert.equal(status, 200, `the feed was refused ${Date.now() - t0} ms after the kill`);
  });

  it('with an API node down, reads through nginx still answer', async () => {
    const down = cluster.api[0];
    assert.ok(down !== undefined);
    down.child.kill('SIGKILL');
    await down.exited;
    for (let i = 0; i < 20; i++) assert.equal((await get('/v1/sports')).status, 200);
  });
});
