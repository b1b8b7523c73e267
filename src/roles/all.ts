// ROLE=all, the default: one process loads the store, applies the feed (the built-in simulator unless FEED=none), settles and serves.
import type { Config } from '../config.js';
import { ensureDemoKey } from './demo-key.js';
import { openHttp, type NodeHttp } from './http.js';
import { nodeMetrics } from './metrics.js';
import { newPipeline, newSettlement, openNode } from './node.js';
import type { Service, ServiceOptions } from './service-types.js';
import { nodeFeed } from './feeds.js';
import { startWork } from './work.js';
import { nodeWebhooks, registerWebhookMetrics, type NodeWebhooks } from './webhooks.js';

export async function composeAll(config: Config, opts: ServiceOptions): Promise<Service> {
  const node = await openNode(config, opts);
  const { store } = node;
  let http: NodeHttp | null = null;
  let webhooks: NodeWebhooks | null = null;
  try {
    const pipeline = newPipeline(node, { store });
    await pipeline.load(opts.onRestore);
    const settlement = newSettlement(node, pipeline, store);
    const feed = await nodeFeed(node, pipeline, opts);
    const upstream = feed?.kind === 'upstream' ? feed : null;
    // Webhooks follow the log from before the first change of this run, after catching up on the store.
    webhooks = nodeWebhooks(node, store, opts.webhooks ?? {});
    await webhooks.start();
    const start = await startWork(node, { pipeline, settlement, simulated: config.feed === 'simulator' });
    const demoKeyCreated = await ensureDemoKey(node);
    const metrics = nodeMetrics(node, {
      pipeline,
      settlement,
      retryHeld: () => feed?.held ?? 0,
      ...(upstream !== null ? { upstream: () => upstream.status() } : {}),
    });
    registerWebhookMetrics(metrics.registry, store, webhooks, node.now);
    const hooks = webhooks;
    http = await openHttp(node, {
      pipeline,
      metrics,
      webhookChanged: () => hooks.changed(),
      ...(feed !== null ? { loading: () => !feed.loaded } : {}),
      ...(upstream !== null ? { upstream: () => upstream.health() } : {}),
    });
    feed?.start(start);

    const { app, counters } = http;
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
      worldLoad: () => (feed?.kind === 'simulator' ? feed.progress : null),
      follower: null,
      election: null,
      async close() {
        if (closed) return;
        closed = true;
        await app.close();
        await counters.close();
        await feed?.close();
        await pipeline.stop();
        await settlement.stop();
        // Settlement's last entries too: the stored replay window ends where this process stopped.
        await pipeline.flush();
        await hooks.stop();
        hooks.close();
        await store.close();
      },
    };
  } catch (err) {
    await http?.counters.close();
    await webhooks?.discard();
    webhooks?.close();
    await store.close().catch(() => undefined);
    throw err;
  }
}
