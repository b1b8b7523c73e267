// The settings the HTTP app reads, as plain values: the composition root takes them from the configuration.
import type { GradingPolicy } from '../domain/grading/types.js';
import type { SiteAddress } from './base-url.js';

export interface ApiSettings extends SiteAddress {
  /** Client reads (events, odds, settlements, usage, the portal) are served here; not on a pipeline node (ROLE=pipeline). */
  servesReads: boolean;
  /** The X-Admin-Key of the admin routes (ADMIN_KEY); null: no admin routes. */
  adminKey: string | null;
  /** One `info` line per answered request (ACCESS_LOG). */
  accessLog: boolean;
  /** Largest client request body (bytes). */
  bodyLimitBytes: number;
  /** Largest admin feed body (bytes). */
  feedBodyLimitBytes: number;
  /** Which proxies' X-Forwarded-For to believe (TRUST_PROXY): false, true, a hop count, or addresses/CIDRs. */
  trustProxy: boolean | number | string;
  /** Origins of browser apps allowed to call the API (CORS_ORIGINS): `*`, a list, or null (none). */
  corsOrigins: '*' | readonly string[] | null;
  /** A live event not updated for this long makes the pipeline `stale` in health. */
  pipelineStaleSeconds: number;
  /** Settlement entries stay in the feed this long. */
  settlementFeedDays: number;
  /** Settlement entries keep their market detail this long, then become `score_only`. */
  settlementDetailDays: number;
  /** Seconds between a stream's heartbeats. */
  streamHeartbeatSeconds: number;
  /** Bytes a stream's socket may hold unsent before its odds are conflated. */
  streamBufferBytes: number;
  /** Stream odds frames written by a worker thread. */
  streamFrameWorker: boolean;
  /** Caught-up streams written by a process of their own (STREAM_PROCESS). */
  streamProcess: boolean;
  /** The grading policy settlement applies (explanations regrade with it); absent: the default. */
  gradingPolicy?: GradingPolicy;
}
