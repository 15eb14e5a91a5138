import { FairGate, type FairGateLimits } from './fair-gate';

const limits: FairGateLimits = {
  permits: 5,
  waiting: 64,
  perIdentity: { permits: 2, waiting: 32 },
  perAddress: { permits: 4, waiting: 32 },
  reserve: 3,
  waitMs: 60_000,
};
const busy = () => new Error('busy');
const at = (identity: string, address = identity) => ({ identity, address });

const settled = async () => {
  for (let n = 0; n < 10; n++) await Promise.resolve();
};

describe('FairGate', () => {
  // Waiters left in line at the end of a test never reach their deadline.
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it("grants a client's second permit only while the reserve stays free: three clients asking for two each hold four of five, and a fourth client's first still gets one", async () => {
    const gate = new FairGate(limits);
    const holders: string[] = [];
    for (const who of ['a', 'b', 'c']) {
      for (let n = 0; n < 2; n++) {
        void gate
          .enter(at(who), busy)
          .then(() => holders.push(who))
          .catch(() => 0);
      }
    }
    await settled();
    expect([gate.inUse, gate.waiting]).toEqual([4, 2]);
    await gate.enter(at('d'), busy);
    expect(gate.inUse).toBe(5);
  });

  it('gives a freed permit to the oldest waiter that may take one, skipping a client at its share', async () => {
    const gate = new FairGate({
      ...limits,
      permits: 2,
      perIdentity: { permits: 1, waiting: 4 },
      reserve: 0,
    });
    await gate.enter(at('a'), busy);
    const b = await gate.enter(at('b'), busy);
    const order: string[] = [];
    void gate
      .enter(at('a'), busy)
      .then(() => order.push('a'))
      .catch(() => 0);
    const c = gate.enter(at('c'), busy).then(() => order.push('c'));
    expect(gate.waiting).toBe(2);
    b();
    await c;
    expect([order, gate.waiting]).toEqual([['c'], 1]);
  });

  it('bounds the permits of an address whatever identities it shows', async () => {
    const gate = new FairGate({ ...limits, reserve: 0 });
    for (let n = 0; n < 6; n++) {
      void gate.enter(at(`user:${n}`, '198.51.100.1'), busy).catch(() => 0);
    }
    await Promise.resolve();
    expect([gate.inUse, gate.waiting]).toEqual([4, 2]);
  });

  it('refuses at once past a share of the line and calls it share', async () => {
    const refused: string[] = [];
    const gate = new FairGate(
      { ...limits, permits: 1, perIdentity: { permits: 1, waiting: 1 } },
      (reason) => refused.push(reason),
    );
    await gate.enter(at('a'), busy);
    void gate.enter(at('a'), busy).catch(() => 0);
    await expect(gate.enter(at('a'), busy)).rejects.toThrow('busy');
    expect(refused).toEqual(['share']);
  });

  it('holds a network (/24) of addresses to its share: four neighbouring addresses hold two of five permits and an address elsewhere still gets one at once', async () => {
    const gate = new FairGate({
      ...limits,
      perNetwork: { permits: 2, waiting: 32 },
    });
    for (const last of [11, 12, 13, 14]) {
      for (let n = 0; n < 2; n++) {
        void gate
          .enter(at(`u${last}-${n}`, `127.0.0.${last}`), busy)
          .catch(() => 0);
      }
    }
    await settled();
    expect(gate.inUse).toBe(2);
    expect(gate.holding('net:127.0.0.0/24')).toBe(2);
    await gate.enter(at('elsewhere', '127.0.1.5'), busy);
    expect(gate.inUse).toBe(3);
  });
});
