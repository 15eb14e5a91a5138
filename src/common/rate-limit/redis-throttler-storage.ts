import type { OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Cluster, Redis } from 'ioredis';

/** What a storage answers (the package does not export the type by name). */
type ThrottlerStorageRecord = Awaited<
  ReturnType<ThrottlerStorage['increment']>
>;

/**
 * One hit, atomically, with the answers of @nestjs/throttler's in-memory
 * ThrottlerStorageService, so that moving the counts to Redis changes
 * nothing a client sees:
 *
 * - a hit counts for `ttl` ms from the moment it was made (a sliding log,
 *   not a fixed window): the hits key is a sorted set scored by the time
 *   each hit stops counting;
 * - timeToExpire is the time left in a window that starts with the first
 *   hit and starts again, on the next hit, once `ttl` has passed;
 * - with a block duration, the hit that goes over the limit blocks for that
 *   duration; blocked hits are not counted, and the first hit after the
 *   block starts a new count of 1;
 * - without one (<= 0), a hit over the limit is refused (reported as
 *   limit + 1) until the oldest counted hit expires, and is not counted.
 *
 * Times come from the Redis server's clock, so every replica agrees on
 * them. Every key expires once nothing in it matters any more. Times are
 * answered in whole seconds, rounded up.
 *
 * KEYS: state (hash: windowEnd, blockedUntil, seq), hits (sorted set).
 * ARGV: ttl ms, limit, block duration ms.
 * Answers: totalHits, timeToExpire, isBlocked (1/0), timeToBlockExpire.
 */
const HIT_SCRIPT = `
if redis.replicate_commands then redis.replicate_commands() end
local stateKey = KEYS[1]
local hitsKey = KEYS[2]
local ttl = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local blockDuration = tonumber(ARGV[3])

local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)

redis.call('ZREMRANGEBYSCORE', hitsKey, '-inf', now)
local hits = redis.call('ZCARD', hitsKey)

local function addHit()
  -- A member must be unique for every hit still in the set.
  local seq = redis.call('HINCRBY', stateKey, 'seq', 1)
  redis.call('ZADD', hitsKey, now + ttl, seq)
  hits = hits + 1
end

local windowEnd = tonumber(redis.call('HGET', stateKey, 'windowEnd'))
if windowEnd == nil or windowEnd <= now then
  windowEnd = now + ttl
  redis.call('HSET', stateKey, 'windowEnd', windowEnd)
end
local timeToExpire = math.ceil((windowEnd - now) / 1000)

local totalHits = hits
local blocked = false
local timeToBlockExpire = 0
local blockedUntil = nil

if blockDuration <= 0 then
  if hits >= limit then
    blocked = true
    totalHits = hits + 1
    local oldest = redis.call('ZRANGE', hitsKey, 0, 0, 'WITHSCORES')
    if oldest[2] then
      timeToBlockExpire = math.ceil((tonumber(oldest[2]) - now) / 1000)
    else
      timeToBlockExpire = timeToExpire
    end
  else
    addHit()
    totalHits = hits
  end
else
  blockedUntil = tonumber(redis.call('HGET', stateKey, 'blockedUntil'))
  if blockedUntil == nil then
    addHit()
    if hits > limit then
      blockedUntil = now + blockDuration
      redis.call('HSET', stateKey, 'blockedUntil', blockedUntil)
    end
  end
  if blockedUntil ~= nil and blockedUntil <= now then
    redis.call('HDEL', stateKey, 'blockedUntil')
    redis.call('DEL', hitsKey)
    blockedUntil = nil
    hits = 0
    addHit()
  end
  totalHits = hits
  if blockedUntil ~= nil then
    blocked = true
    timeToBlockExpire = math.ceil((blockedUntil - now) / 1000)
  end
end

local keepUntil = windowEnd
if blockedUntil ~= nil and blockedUntil > keepUntil then
  keepUntil = blockedUntil
end
local newest = redis.call('ZRANGE', hitsKey, -1, -1, 'WITHSCORES')
if newest[2] then
  local lastHitEnd = math.ceil(tonumber(newest[2]))
  redis.call('PEXPIREAT', hitsKey, lastHitEnd)
  if lastHitEnd > keepUntil then
    keepUntil = lastHitEnd
  end
end
-- The state outlives the hits: its seq keeps their members unique.
redis.call('PEXPIREAT', stateKey, math.ceil(keepUntil))

return { totalHits, timeToExpire, blocked and 1 or 0, timeToBlockExpire }
`;

/** The name under which the script is registered on the client. */
const COMMAND = 'throttlerHit';

/** How long a clean QUIT may take before the connection is just dropped. */
const QUIT_TIMEOUT_MS = 1000;

type ClientWithHit = (Redis | Cluster) & {
  [COMMAND](
    stateKey: string,
    hitsKey: string,
    ttl: number,
    limit: number,
    blockDuration: number,
  ): Promise<unknown>;
};

/**
 * @nestjs/throttler's storage in Redis, one Lua script (EVALSHA, EVAL when
 * the server does not know it yet) per hit. A throttler's counts for a key
 * live under `<key>:<throttlerName>:state` and `…:hits` (hitKeys()), which
 * share a hash tag, so that the script also runs on Redis Cluster.
 *
 * The storage owns the client it is given: it closes it on shutdown.
 */
export class RedisThrottlerStorage
  implements ThrottlerStorage, OnApplicationShutdown
{
  private readonly client: ClientWithHit;

  constructor(client: Redis | Cluster) {
    client.defineCommand(COMMAND, { numberOfKeys: 2, lua: HIT_SCRIPT });
    this.client = client as ClientWithHit;
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const [stateKey, hitsKey] = hitKeys(key, throttlerName);
    const answer = await this.client[COMMAND](
      stateKey,
      hitsKey,
      ttl,
      limit,
      blockDuration,
    );
    if (!isAnswer(answer)) {
      throw new TypeError(
        `Unexpected rate-limit answer from Redis: ${JSON.stringify(answer)}`,
      );
    }
    const [totalHits, timeToExpire, isBlocked, timeToBlockExpire] = answer;
    return {
      totalHits,
      timeToExpire,
      isBlocked: isBlocked === 1,
      timeToBlockExpire,
    };
  }

  /** Resolves once Redis answers a PING (how an outage is seen to end). */
  async ping(): Promise<void> {
    await this.client.ping();
  }

  async onApplicationShutdown(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.client.quit(),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(
            () => reject(new Error('QUIT not answered')),
            QUIT_TIMEOUT_MS,
          );
        }),
      ]);
    } catch {
      // Already closed, or Redis does not answer: drop the connection
      // (and stop reconnecting) rather than hold up the shutdown.
      this.client.disconnect();
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * The two keys one hit touches: state, then hits. Redis Cluster runs a
 * script only on keys of one slot (CROSSSLOT otherwise), and places a key
 * by its hash tag — the text between its first `{` and the first `}` after
 * it, when that is not empty — or else by the whole key. So the two keys
 * must carry the same tag:
 *
 * - a key that has one already (the client rate limits write
 *   `<prefix><segment>:{<client>}`, so that REDIS_KEY_PREFIX still starts
 *   every key and each client lands in a slot of its own) keeps it: both
 *   keys start with the whole key, tag included;
 * - any other key becomes the tag itself, `{<key>}`, its `{`, `}` and `%`
 *   written as %7B, %7D and %25 so that the tag cannot end early and two
 *   keys cannot become one.
 */
export function hitKeys(key: string, throttlerName: string): [string, string] {
  const base = hasHashTag(key) ? key : `{${escapeBraces(key)}}`;
  return [`${base}:${throttlerName}:state`, `${base}:${throttlerName}:hits`];
}

/** Whether Redis Cluster would place `key` by a hash tag of its own. */
export function hasHashTag(key: string): boolean {
  const open = key.indexOf('{');
  if (open === -1) return false;
  const close = key.indexOf('}', open + 1);
  return close > open + 1;
}

/**
 * `value` as a hash tag's text: braces, and the escape character itself,
 * percent-encoded.
 */
export function escapeBraces(value: string): string {
  return value.replace(
    /[%{}]/g,
    (c) => ({ '%': '%25', '{': '%7B', '}': '%7D' })[c]!,
  );
}

function isAnswer(value: unknown): value is [number, number, number, number] {
  return (
    Array.isArray(value) &&
    value.length === 4 &&
    value.every((item) => typeof item === 'number')
  );
}
