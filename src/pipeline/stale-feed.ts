// Stale-feed protection: the internal message the leader locks or unlocks a quiet live event with, and when a lock is due.
import type { LiveEvent } from '../live/live-event.js';

/**
 * Not a feed message: producers cannot send it (the feed's schemas know no such type). The
 * leader applies it to lock a live event its feed went quiet on, or to lift that lock when a
 * message that changed nothing confirmed the event, and hands it on like any applied message:
 * every replica applies the same lock at the same place in the change stream, and none decides
 * one by itself (its clock and its view of the feed's timing are not the leader's).
 */
export interface FeedStaleMessage {
  type: 'feed_stale';
  event_id: string;
  stale: boolean;
  ts?: string;
}

/** The longest wait between two sweeps: a lock comes at most this long after the limit. */
export const STALE_SWEEP_MAX_MS = 1000;

/** How often the leader looks for quiet events: a quarter of the limit, at most a second. */
export function staleSweepIntervalMs(limitMs: number): number {
  return Math.max(50, Math.min(STALE_SWEEP_MAX_MS, limitMs / 4));
}

/**
 * Whether a live event has had no feed data for `limitMs` of wall time and is not locked for it
 * yet. Wall time, not world time: an accelerated simulator's world runs ahead of the wall, and the
 * question is whether the producer is still talking.
 */
export function staleDue(le: LiveEvent, wallNow: number, limitMs: number): boolean {
  return le.event.status === 'live' && !le.stale && wallNow - le.freshAt >= limitMs;
}
