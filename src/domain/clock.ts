// Clocks: the wall clock, and the world clock of an accelerated simulation (SIM_SPEED).

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
