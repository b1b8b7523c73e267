// ROLE=api: a stateless API node, its read model a replica that follows the change stream; feed requests are relayed to the pipeline nodes.
import type { Config } from '../config.js';
import { Follower } from '../pipeline/follower.js';
import type { ChangeStreamReader } from '../pipeline/redis-change-stream.js';
import { ensureDemoKey } from './demo-key.js';
import { openHttp, type NodeHttp } from './http.js';
import { nodeMetrics } from './metrics.js';
import { newPipeline, newSettlement, openNode } from './node.js';
import { openStreamReader, registerScaleOutMetrics, scaleOutUrls } from './scale-out.js';
import type { Service, ServiceOptions } from './service-types.js';

export async function composeApi(config: Config, opts: ServiceOptions): Promise<Service> {
  const { redisUrl } = scaleOutUrls(config);
  const node = await openNode(config, opts);
  const { store } = node;
  let reader: ChangeStreamReader | null = null;
  let http: NodeHttp | null = null;
  try {
    reader = await openStreamReader(config, redisUrl);
    const pipeline = newPipeline(node, { store, replica: true });
    // Never started: an API node settles nothing; its settlement counters follow the stream.
    const settlement = newSettlement(node, pipeline, store);
    pipeline.start(); // its timers sweep old events; a replica never flushes
    const demoKeyCreated = await ensureDemoKey(node);
    const metrics = nodeMetrics(node, { pipeline, settlement, retryHeld: () => 0 });
    const scaleMetrics = registerScaleOutMetrics(metrics.registry, { follower: () => follower });
    const follower = new Follower({
      pipeline,
      reader,
      store,
      index: node.settlementIndex,
      now: node.worldClock.now,
      feedRetentionMs: config.settlementFeedDays * 86_400_000,
      setClock: (c) => node.worldClock.run(c),
      log: node.log,
      onLag: scaleMetrics.observeLag,
      // The first snapshot loads the leader's stored replay window (ids from before this node started resume).
      ...(config.streamReplaySeconds > 0
        ? { window: { ms: config.streamReplaySeconds * 1000, maxBytes: config.streamReplayBytes, wallNow: node.now } }
        : {}),
    });
    http = await openHttp(node, {
      pipeline,
      metrics,
      feedRole: {
        kind: 'relay',
        pipelineUrls: config.pipelineUrls,
        waitFor: (position, timeoutMs) => follower.waitFor(position, timeoutMs),
      },
      // A stream resuming from a position another node already served waits this long for it.
      streamCatchUpMs: 2000,
    });
    // The first snapshot is loaded before the node listens, as a single process loads at start.
    await follower.start();

    const { app, counters } = http;
    const streamReader = reader;
    let closed = false;
    return {
      config,
      app,
      readModel: node.readModel,
      pipeline,
      settlement,
      store,
      log: node.changeLog,
      keyAdmin: http.keyAdmin,
      usage: http.usage,
      demoKeyCreated,
      worldLoad: () => null,
      follower,
      election: null,
      async close() {
        if (closed) return;
        closed = true;
        await app.close();
        await counters.close();
        await follower.stop();
        await pipeline.stop();
        await settlement.stop();
        streamReader.close();
        await store.close();
      },
    };
  } catch (err) {
    await http?.counters.close();
    reader?.close();
    await store.close().catch(() => undefined);
    throw err;
  }
}
