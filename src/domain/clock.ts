// Clocks: the wall clock, and the world clock that is "now" for clients (it runs ahead of the wall with SIM_SPEED > 1).

export type Clock = () => number;

/**
 * World time that reads `worldStartAt` at the wall time `wallStartAt` and runs `speed` times faster. The simulator
 * stamps its messages in world time, so everything that compares event times with "now" (live
 * scores' 5-minute buffer, retention, `starts_within`) must read this clock, not the wall.
 */
export function acceleratedClock(worldStartAt: number, wallStartAt: number, speed: number, wall: Clock): Clock {
  if (speed === 1 && worldStartAt === wallStartAt) return wall;
  return () => worldStartAt + (wall() - wallStartAt) * speed;
}

/** How a world clock runs: world time `startAt` at wall time `wallStartAt`, `speed` world ms per wall ms. */
export interface WorldClockParams {
  startAt: number;
  wallStartAt: number;
  speed: number;
}

/**
 * The service's one "now" for clients (docs/api.md, "Time"): every time a client reads — event
 * and result times, `updated_at`, settlement times, `/v1/health`'s `timestamp`, `X-World-Time` —
 * comes from `now`. It is the wall clock unless a simulated world runs at another pace (the
 * simulator at SIM_SPEED > 1, or resumed ahead of the wall after such a run); quota and rate-limit
 * windows, Retry-After, uptime and freshness stay on the wall clock, which is real time.
 */
export class WorldClock {
  private clock: Clock;
  private params: WorldClockParams | null = null;

  constructor(readonly wall: Clock) {
    this.clock = wall;
  }

  /** World time now (epoch ms). */
  readonly now: Clock = () => this.clock();

  /** Runs the world as `params` say (a simulator starting, or the leader's clock on a replica); null: the wall clock. */
  run(params: WorldClockParams | null): void {
    this.params = params;
    this.clock =
      params === null ? this.wall : acceleratedClock(params.startAt, params.wallStartAt, params.speed, this.wall);
  }

  /** World time is wall time: nothing to tell a client beyond the wall clock. */
  get isWall(): boolean {
    return this.clock === this.wall;
  }

  /** World ms per wall ms (1 on the wall clock). */
  get speed(): number {
    return this.isWall ? 1 : (this.params?.speed ?? 1);
  }
}
