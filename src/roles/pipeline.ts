// ROLE=pipeline: a candidate that stands for election; the leader loads the store, applies the feed, settles and publishes the change stream, a standby waits.
import type { Config } from '../config.js';
import { LeaderElection } from '../pipeline/leader-election.js';
import { settlementNote } from '../pipeline/redis-change-stream.js';
import { continuePredecessor } from '../pipeline/succession.js';
import { Leadership } from '../pipeline/leadership.js';
import { ensureDemoKey } from './demo-key.js';
import { openHttp, type NodeHttp } from './http.js';
import { nodeMetrics } from './metrics.js';
import { newPipeline, newSettlement, openNode } from './node.js';
import { openStreamWriter, registerScaleOutMetrics, scaleOutUrls, type StreamWriterEnd } from './scale-out.js';
import type { Service, ServiceOptions } from './service-types.js';
import { nodeFeed } from './feeds.js';
import { startWork } from './work.js';
import { nodeWebhooks, registerWebhookMetrics } from './webhooks.js';

export async function composePipeline(config: Config, opts: ServiceOptions): Promise<Service> {
  const { databaseUrl, redisUrl } = scaleOutUrls(config);
  const node = await openNode(config, opts);
  const { store, settlementIndex, log, logger } = node;
  let stream: StreamWriterEnd | null = null;
  let http: NodeHttp | null = null;
  try {
    stream = await openStreamWriter(config, redisUrl, log);
    const { writer } = stream;
    // The pipeline and settlement write through a fence that closes the moment this node is deposed.
    const leadership = new Leadership(store, { start: (current) => lead(current), stop: () => stepDown() });
    const pipeline = newPipeline(node, { store: leadership.store, sink: writer });
    const settlement = newSettlement(node, pipeline, leadership.store, (e) =>
      pipeline.exclusive(() => node.changeLog.append(e)),
    );
    const feed = await nodeFeed(node, pipeline, opts, leadership.store);
    // Webhooks are derived and delivered by the leader only, through the fence.
    const webhooks = nodeWebhooks(node, leadership.store, opts.webhooks ?? {});
    const upstream = feed?.kind === 'upstream' ? feed : null;
    // Settlement counters of the API nodes follow every committed settlement batch.
    node.changeLog.subscribe((c) => {
      if (c.kind !== 'settlement') return;
      const entry = settlementIndex.get(c.eventId);
      if (entry !== undefined) writer.settlement(settlementNote(c, entry.endedAt, !entry.settled));
    });

    /** A new term: the store afresh (an earlier term's state is gone), then every writer; stops where it is once deposed. */
    async function lead(current: () => boolean): Promise<void> {
      logger?.info('elected pipeline leader: loading the store and taking the feed');
      const t0 = performance.now();
      const events = await pipeline.reload();
      if (!current()) return;
      // What the old leader published after its last flush is replayed: streams go on without a gap.
      const continues = await continuePredecessor(writer, pipeline, log);
      if (!current()) return;
      // From the position the last leader stored with its deliveries: a failover loses none.
      await webhooks.start();
      if (!current()) return;
      const t1 = performance.now();
      const start = await startWork(node, {
        pipeline,
        settlement,
        simulated: config.feed === 'simulator',
        writer,
        continues,
      });
      if (!current()) return;
      feed?.start(start);
      const ms = (t: number): number => Math.round(performance.now() - t);
      logger?.info({ events, loadMs: Math.round(t1 - t0), startMs: ms(t1) }, 'leading: store loaded, feed taken');
    }
    /** Deposed: stop everything that writes or publishes, write nothing more, drop the state. */
    async function stepDown(): Promise<void> {
      writer.stop();
      await feed?.stop();
      await settlement.stop();
      await webhooks.discard();
      await pipeline.discard();
      for (const id of settlementIndex.idsEndedBefore(Number.POSITIVE_INFINITY)) settlementIndex.delete(id);
      log.warn({}, 'stepped down: a standby again, standing for election');
    }

    const election = new LeaderElection({
      url: databaseUrl,
      log,
      onElected: () => leadership.elected(),
      onLost: (reason) => {
        // Synchronously: no write, no entry from here on; then the rest stops.
        writer.stop();
        const stepped = leadership.lost();
        opts.onLeadershipLost?.(reason);
        return stepped;
      },
    });

    const demoKeyCreated = await ensureDemoKey(node);
    const metrics = nodeMetrics(node, {
      pipeline,
      settlement,
      retryHeld: () => feed?.held ?? 0,
      ...(upstream !== null ? { upstream: () => upstream.status() } : {}),
    });
    registerWebhookMetrics(metrics.registry, store, webhooks, node.now);
    registerScaleOutMetrics(metrics.registry, {
      leading: () => leadership.leading,
      stepDowns: () => election.stepDowns,
    });
    http = await openHttp(node, {
      pipeline,
      metrics,
      feedRole: { kind: 'candidate', leading: () => leadership.leading, position: () => writer.position },
      webhookChanged: () => {
        if (leadership.leading) webhooks.changed();
      },
      ...(feed !== null ? { loading: () => !feed.loaded } : {}),
      ...(upstream !== null ? { upstream: () => upstream.health() } : {}),
    });
    // Stands for election once the whole node exists: being elected starts the work at once.
    election.start();

    const { app, counters } = http;
    const streamEnd = stream;
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
      election,
      async close() {
        if (closed) return;
        closed = true;
        await app.close();
        await counters.close();
        await feed?.close();
        await pipeline.stop();
        await settlement.stop();
        if (leadership.leading) await webhooks.stop();
        else await webhooks.discard();
        webhooks.close();
        // The lock goes last: a standby takes over only once this node's writes are flushed.
        await election.stop();
        await streamEnd.close();
        await store.close();
      },
    };
  } catch (err) {
    await http?.counters.close();
    await stream?.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    throw err;
  }
}
