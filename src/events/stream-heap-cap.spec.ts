import {
  HEAP_RESERVE_BYTES,
  STREAM_HEAP_BYTES,
  instanceStreamLimit,
  streamsTheHeapHolds,
} from './stream-heap-cap';

const MB = 1024 * 1024;

describe('the streams a heap holds', () => {
  it("caps EVENTS_INSTANCE_LIMIT under the pod's heap (176 MB) below where V8 ran out (about 7,100 streams)", () => {
    const held = streamsTheHeapHolds(176 * MB);
    expect(held).toBe(
      Math.floor((176 * MB - HEAP_RESERVE_BYTES) / STREAM_HEAP_BYTES),
    );
    expect(held).toBeLessThan(7_000);
    expect(instanceStreamLimit(10_000, 176 * MB)).toBe(held);
  });

  it("keeps the default of 5,000 under the pod's heap, and any limit under a large heap", () => {
    expect(instanceStreamLimit(5_000, 176 * MB)).toBe(5_000);
    expect(instanceStreamLimit(1_000_000, 4_096 * MB)).toBe(
      Math.floor((4_096 * MB - HEAP_RESERVE_BYTES) / STREAM_HEAP_BYTES),
    );
    expect(instanceStreamLimit(20_000, 4_096 * MB)).toBe(20_000);
  });

  it('leaves at least 100 streams to a heap smaller than its reserve', () => {
    expect(streamsTheHeapHolds(64 * MB)).toBe(100);
  });

  it("reads this process's own heap limit when given none", () => {
    expect(streamsTheHeapHolds()).toBeGreaterThanOrEqual(100);
  });
});
