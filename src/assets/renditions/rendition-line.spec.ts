import { ClientClosedRequestError } from '../../failures/client-closed-request.error';
import {
  ServiceBusyError,
  TooManyRequestsError,
} from '../../failures/retry-later.error';
import { ladderStepFor, RENDITION_LADDER } from './rendition-ladder';
import { RenditionLine } from './rendition-line';

/** A piece of work that waits until the test lets it go. */
function heldWork() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const calls: boolean[] = [];
  const work = async (wanted: () => boolean) => {
    await gate;
    calls.push(wanted());
    return wanted() ? 'made' : undefined;
  };
  return { work, release, calls };
}

describe('RenditionLine', () => {
  const limits = { queueLimit: 2, clientLimit: 2 };

  it('shares one piece of work between requests for the same key', async () => {
    const line = new RenditionLine<string>(limits);
    const { work, release } = heldWork();
    const other = jest.fn();
    const first = line.request(
      'a:32',
      'c1',
      new AbortController().signal,
      work,
    );
    const second = line.request(
      'a:32',
      'c2',
      new AbortController().signal,
      other,
    );
    expect(line.size).toBe(1);
    release();
    await expect(Promise.all([first, second])).resolves.toEqual([
      'made',
      'made',
    ]);
    expect(other).not.toHaveBeenCalled();
    expect(line.size).toBe(0);
  });

  it('drops work whose clients all left before its turn, and counts it', async () => {
    const dropped = jest.fn();
    const line = new RenditionLine<string>(limits, dropped);
    const { work, release, calls } = heldWork();
    const client = new AbortController();
    const waiting = line.request('a:64', 'c1', client.signal, work);
    client.abort();
    await expect(waiting).rejects.toBeInstanceOf(ClientClosedRequestError);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual([false]);
    expect(dropped).toHaveBeenCalledTimes(1);
    expect(line.size).toBe(0);
  });

  it('refuses a client already waiting for clientLimit renditions with 429', async () => {
    const line = new RenditionLine<string>({ queueLimit: 10, clientLimit: 2 });
    const { work, release } = heldWork();
    const signal = new AbortController().signal;
    const held = [
      line.request('a:16', 'c1', signal, work),
      line.request('a:32', 'c1', signal, work),
    ];
    await expect(
      line.request('a:48', 'c1', signal, work),
    ).rejects.toBeInstanceOf(TooManyRequestsError);
    // Another client is still served.
    held.push(line.request('a:48', 'c2', signal, work));
    release();
    await Promise.all(held);
  });

  it('refuses new work with 503 once queueLimit pieces are in line, and takes work again after', async () => {
    const line = new RenditionLine<string>(limits);
    const { work, release } = heldWork();
    const signal = new AbortController().signal;
    const held = [
      line.request('a:16', 'c1', signal, work),
      line.request('b:16', 'c2', signal, work),
    ];
    const refused = await line
      .request('c:16', 'c3', signal, work)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ServiceBusyError);
    expect((refused as ServiceBusyError).retryAfterSeconds).toBeGreaterThan(0);
    release();
    await Promise.all(held);
    await expect(line.request('c:16', 'c3', signal, work)).resolves.toBe(
      'made',
    );
  });

  it('gives every waiter the failure of the work', async () => {
    const line = new RenditionLine<string>(limits);
    const signal = new AbortController().signal;
    const failing = () => Promise.reject(new Error('undecodable'));
    const both = [
      line.request('a:16', 'c1', signal, failing),
      line.request('a:16', 'c2', signal, failing),
    ];
    for (const waiting of both)
      await expect(waiting).rejects.toThrow('undecodable');
    expect(line.size).toBe(0);
  });
});

describe('the rendition ladder', () => {
  it('serves a size between steps with the next step up, and a step with itself', () => {
    expect(ladderStepFor(16)).toBe(16);
    expect(ladderStepFor(17)).toBe(24);
    expect(ladderStepFor(24)).toBe(24);
    expect(ladderStepFor(25)).toBe(32);
    expect(ladderStepFor(65)).toBe(96);
    expect(ladderStepFor(33)).toBe(48);
    expect(ladderStepFor(181)).toBe(192);
    expect(ladderStepFor(513)).toBe(1024);
    expect(ladderStepFor(1024)).toBe(1024);
  });

  it('gives at most twelve renditions to the 1,009 sizes from 16 to 1024', () => {
    const steps = new Set<number>();
    for (let size = 16; size <= 1024; size++) steps.add(ladderStepFor(size));
    expect([...steps]).toEqual(RENDITION_LADDER);
    expect(steps.size).toBe(12);
  });
});
