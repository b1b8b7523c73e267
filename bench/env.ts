// Benchmark knobs from the environment: validated numbers, and the error that prints usage instead of a stack.
export class UsageError extends Error {}

/** A number from `name`, or `fallback` when unset; anything unreadable is a usage error, not a silent default. */
export function envNumber(name: string, fallback: number, min: number, integer: boolean): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || (integer && !Number.isInteger(n))) {
    throw new UsageError(`${name} must be ${integer ? 'an integer' : 'a number'} >= ${min}, got '${raw}'`);
  }
  return n;
}
