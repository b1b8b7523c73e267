// X-World-Time: the world's "now" on every answer while it is not the wall clock (an accelerated simulator).
import type { FastifyInstance } from 'fastify';
import type { WorldClock } from '../domain/clock.js';

/**
 * `Date` stays HTTP's: real time, which proxies rewrite and caches count ages with. While the
 * world runs at another pace, each answer also says the world's time as it is sent, so no time in
 * the body is later than it (docs/api.md, "Time").
 */
export function installWorldTime(app: FastifyInstance, clock: WorldClock): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!clock.isWall) void reply.header('x-world-time', new Date(clock.now()).toISOString());
    done(null, payload);
  });
}
