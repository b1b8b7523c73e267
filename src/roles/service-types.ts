// What a composed node hands back (Service) and what its caller may inject (ServiceOptions), whatever its ROLE.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { KeyAdmin } from '../api/key-admin.js';
import type { UsageCounter } from '../api/quota/counter.js';
import type { Config } from '../config.js';
import type { SimConfigInput } from '../feed/simulator/index.js';
import type { ChangeLog } from '../live/change-log.js';
import type { ReadModel } from '../live/read-model.js';
import type { Follower } from '../pipeline/follower.js';
import type { LeaderElection } from '../pipeline/leader-election.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import type { SettlementEngine } from '../pipeline/settlement/engine.js';
import type { Store } from '../store/store.js';
import type { UpstreamOptions } from './upstream.js';
import type { WorldLoad } from './simulator.js';
import type { WebhookPoster } from '../pipeline/webhooks/http-poster.js';

export interface ServiceOptions {
  /** Injected wall clock (tests); defaults to Date.now. */
  now?: () => number;
  /** A pino logger, or none (tests). */
  logger?: Logger;
  /**
   * ROLE=pipeline: told when this node lost its leadership (its election lock, or leading failed to
   * start). Whatever it does, the node has stopped writing and steps down to a standby that stands
   * for election again; the process goes on (tests record the reason).
   */
  onLeadershipLost?: (reason: string) => void;
  /** Told as a start restores the stored events (read so far, of how many): the CLI shows it. */
  onRestore?: (events: number, of: number) => void;
  /** Settings of the built-in simulator (tests: a smaller world); default: the whole world. */
  simulator?: SimConfigInput;
  /** FEED=the-odds-api (tests): the fake upstream's fetch, a fast poll loop, a short timeout. */
  upstream?: UpstreamOptions;
  /** Webhook delivery (tests): another poster than node:http. */
  webhooks?: { post?: WebhookPoster };
}

export interface Service {
  config: Config;
  app: FastifyInstance;
  readModel: ReadModel;
  pipeline: Pipeline;
  settlement: SettlementEngine;
  store: Store;
  /** The ordered change log (the stream and settlement follow it; tests too). */
  log: ChangeLog;
  /** Key management effective at once on this node (the portal, tests). */
  keyAdmin: KeyAdmin;
  /** The quota counters (tests flush them). */
  usage: UsageCounter;
  /** The demo key's secret when this start created it (printed once), else null. */
  demoKeyCreated: string | null;
  /** How far the built-in simulator's starting world has loaded (null: no simulator on this node). */
  worldLoad(): WorldLoad | null;
  /** ROLE=api: the replica following the change stream; ROLE=pipeline: the leader election. */
  follower: Follower | null;
  election: LeaderElection | null;
  /** Stops the app (finishing in-flight requests), flushes the pipeline, closes the store. */
  close(): Promise<void>;
}
