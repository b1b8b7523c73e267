// The Lua scripts behind the Redis counters: each is one atomic step on the server (no other command runs in between).
import type { Redis } from 'ioredis';

/** Outcomes of CONSUME, first element of its reply. */
export const CONSUMED = 1;
export const OVER_QUOTA = 0;
export const OVER_RATE = 2;
/** This month's counts are not in Redis yet (first use, or Redis lost them): seed from the store, then retry. */
export const UNSEEDED = -1;

/**
 * The monthly quota, then the per-second window, then the counts: a refusal changes nothing.
 * KEYS: seeded marker of the month, the key's month hash, its second counter, its minute bucket.
 * ARGV: per-month limit (-1: none), per-second limit (-1: none), day field (`r07`), month hash TTL
 * (ms), second TTL (ms), minute TTL (ms). Reply: {outcome, month count after the decision}.
 */
const CONSUME = `
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1, 0} end
local used = tonumber(redis.call('HGET', KEYS[2], 'n') or '0')
local perMonth = tonumber(ARGV[1])
if perMonth >= 0 and used >= perMonth then return {0, used} end
local perSecond = tonumber(ARGV[2])
if perSecond >= 0 then
  local taken = tonumber(redis.call('GET', KEYS[3]) or '0')
  if taken >= perSecond then return {2, used} end
  redis.call('INCR', KEYS[3])
  redis.call('PEXPIRE', KEYS[3], ARGV[5])
end
used = redis.call('HINCRBY', KEYS[2], 'n', 1)
redis.call('HINCRBY', KEYS[2], ARGV[3], 1)
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('HINCRBY', KEYS[4], 'r', 1)
redis.call('PEXPIRE', KEYS[4], ARGV[6])
return {1, used}
`;

/** A slot of the second without counting. KEYS: second counter. ARGV: limit, TTL (ms). Reply: 1 taken, 0 full. */
const THROTTLE = `
local taken = tonumber(redis.call('GET', KEYS[1]) or '0')
if taken >= tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/**
 * An error of a counted request. Only a key with counts this month can have errors (as in memory),
 * and nothing is created before the month is seeded (a seed never overwrites an existing hash).
 * KEYS: seeded marker, month hash, minute bucket. ARGV: error field (`e07`), month TTL, minute TTL.
 */
const RECORD_ERROR = `
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
redis.call('PEXPIRE', KEYS[2], ARGV[2])
redis.call('HINCRBY', KEYS[3], 'e', 1)
redis.call('PEXPIRE', KEYS[3], ARGV[3])
return 1
`;

/**
 * A key's month and last hour in one consistent read. KEYS: seeded marker, month hash, then the
 * minute buckets of the hour. Reply: {0} when unseeded, else {1, month hash as field/value list,
 * requests of the hour, errors of the hour}.
 */
const SNAPSHOT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return {0} end
local requests, errors = 0, 0
for i = 3, #KEYS do
  local v = redis.call('HMGET', KEYS[i], 'r', 'e')
  requests = requests + tonumber(v[1] or '0')
  errors = errors + tonumber(v[2] or '0')
end
return {1, redis.call('HGETALL', KEYS[2]), requests, errors}
`;

/**
 * Seeds month hashes from the store's day totals, never over an existing hash (another node
 * seeded it, or it already counts), and nothing at all once the month is marked seeded.
 * KEYS: seeded marker, then month hashes. ARGV: TTL (ms), 1 to set the marker at the end, then per
 * hash its number of fields and the field/value pairs.
 */
const SEED = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local ttl = ARGV[1]
local i = 3
for k = 2, #KEYS do
  local n = tonumber(ARGV[i])
  if redis.call('EXISTS', KEYS[k]) == 0 and n > 0 then
    redis.call('HSET', KEYS[k], unpack(ARGV, i + 1, i + n * 2))
    redis.call('PEXPIRE', KEYS[k], ttl)
  end
  i = i + 1 + n * 2
end
if ARGV[2] == '1' then
  redis.call('SET', KEYS[1], '1', 'PX', ttl)
end
return 1
`;

/**
 * A caller's allowance (health/status): refused while the oldest of the last `perHour` accepted is
 * less than an hour old, then while the second is full; an accepted request is remembered.
 * KEYS: second counter, sorted set of accepted times. ARGV: now (ms), per second, per hour, hour
 * (ms), second TTL (ms). Reply: {1, 0} accepted, {0, oldest} hour full, {2, 0} second full.
 */
const CALLER_HIT = `
local now = tonumber(ARGV[1])
local perHour = tonumber(ARGV[3])
local hour = tonumber(ARGV[4])
if redis.call('ZCARD', KEYS[2]) >= perHour then
  local oldest = tonumber(redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')[2])
  if oldest > now - hour then return {0, oldest} end
end
local taken = tonumber(redis.call('GET', KEYS[1]) or '0')
if taken >= tonumber(ARGV[2]) then return {2, 0} end
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
-- Members must be unique: two requests may share a millisecond.
local t = redis.call('TIME')
redis.call('ZADD', KEYS[2], now, ARGV[1] .. ':' .. t[1] .. t[2] .. ':' .. (taken + 1))
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -(perHour + 1))
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return {1, 0}
`;

type Arg = string | number;

/** The scripts as commands of one client (EVALSHA, loaded on first use per connection). */
export interface QuotaScripts {
  sdsConsume(...args: Arg[]): Promise<[number, number]>;
  sdsThrottle(...args: Arg[]): Promise<number>;
  sdsRecordError(...args: Arg[]): Promise<number>;
  sdsSnapshot(...args: Arg[]): Promise<[0] | [1, string[], number, number]>;
  /** Variable key count: the first argument is the number of keys. */
  sdsSeed(...args: Arg[]): Promise<number>;
  sdsCallerHit(...args: Arg[]): Promise<[number, number]>;
}

/** Defines the scripts on the client (idempotent) and returns it typed with them. */
export function quotaScripts(redis: Redis): Redis & QuotaScripts {
  const r = redis as Redis & Partial<QuotaScripts>;
  if (r.sdsConsume === undefined) {
    redis.defineCommand('sdsConsume', { numberOfKeys: 4, lua: CONSUME });
    redis.defineCommand('sdsThrottle', { numberOfKeys: 1, lua: THROTTLE });
    redis.defineCommand('sdsRecordError', { numberOfKeys: 3, lua: RECORD_ERROR });
    redis.defineCommand('sdsSnapshot', { lua: SNAPSHOT });
    redis.defineCommand('sdsSeed', { lua: SEED });
    redis.defineCommand('sdsCallerHit', { numberOfKeys: 2, lua: CALLER_HIT });
  }
  return redis as Redis & QuotaScripts;
}
