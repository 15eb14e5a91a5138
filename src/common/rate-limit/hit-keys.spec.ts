import { clusterKeySlot } from '../../../test/support/redis-cluster-slot';
import { escapeBraces, hasHashTag, hitKeys } from './redis-throttler-storage';

/**
 * The keys of one rate-limit hit land in one Redis Cluster slot, whatever
 * the key (no server needed: the slot is computed as the cluster does;
 * test/redis/rate-limit-redis-cluster.e2e-spec.ts runs the script on a cluster).
 */

describe('hitKeys (the keys of one rate-limit hit)', () => {
  it('computes slots as Redis Cluster does (the specification’s examples)', () => {
    // Known slots (test/redis/rate-limit-redis-cluster.e2e-spec.ts also checks
    // the function against a cluster's CLUSTER KEYSLOT).
    expect(clusterKeySlot('foo')).toBe(12182);
    expect(clusterKeySlot('123456789')).toBe(12739);
    expect(clusterKeySlot('{user1000}.following')).toBe(
      clusterKeySlot('user1000'),
    );
    expect(clusterKeySlot('foo{}{bar}')).not.toBe(clusterKeySlot('bar'));
  });

  it.each([
    ['a client rate limit key', 'workspace-api:logo-rate:{203.0.113.7}'],
    ['an untagged key', 'workspace-api:logo-rate:203.0.113.7'],
    ['an empty tag', 'workspace-api:{}:x'],
    ['a key that starts with a closing brace', '}x'],
    ['an unclosed brace', 'prefix:{client'],
    [
      'braces in the client',
      `workspace-api:logo-rate:{${escapeBraces('}{a}')}}`,
    ],
  ])('%s: state and hits share one slot', (_name, key) => {
    const [state, hits] = hitKeys(key, 'logo');
    expect(state).not.toBe(hits);
    expect(clusterKeySlot(state)).toBe(clusterKeySlot(hits));
  });

  it('keeps the key first when it has a tag of its own (REDIS_KEY_PREFIX starts every key)', () => {
    const key = 'workspace-api:project-create-rate:{user:alice}';
    expect(hitKeys(key, 'create')).toEqual([
      `${key}:create:state`,
      `${key}:create:hits`,
    ]);
  });

  it('spreads clients over slots (their tag differs)', () => {
    const slots = new Set(
      Array.from({ length: 50 }, (_, i) =>
        clusterKeySlot(
          hitKeys(`workspace-api:logo-rate:{10.0.0.${i}}`, 'logo')[0],
        ),
      ),
    );
    expect(slots.size).toBeGreaterThan(40);
  });

  it('keeps distinct keys distinct after escaping', () => {
    const keys = ['a{b', 'a%7Bb', 'a}b', 'a%7Db', 'a%b', 'a%25b'];
    const escaped = keys.map((key) => hitKeys(key, 'n')[0]);
    expect(new Set(escaped).size).toBe(keys.length);
  });

  it('the check catches keys without a shared tag', () => {
    // What the storage wrote before: two keys hashed whole.
    expect(
      clusterKeySlot('workspace-api:logo-rate:1.2.3.4:logo:state'),
    ).not.toBe(clusterKeySlot('workspace-api:logo-rate:1.2.3.4:logo:hits'));
    expect(hasHashTag('a{}b')).toBe(false);
    expect(hasHashTag('a{b}')).toBe(true);
  });
});
