import { RecentRenditions } from './recent-renditions';

const rendition = (bytes: number) => ({
  sha256: `sha-${bytes}`,
  bytes: Buffer.alloc(bytes),
});

describe('RecentRenditions', () => {
  it('reads a rendition once for requests that come together, and they share its bytes', async () => {
    const recent = new RecentRenditions(1024);
    let release!: () => void;
    const read = jest.fn(
      () =>
        new Promise<ReturnType<typeof rendition>>((resolve) => {
          release = () => resolve(rendition(100));
        }),
    );
    const both = Promise.all([
      recent.get('a:32', read),
      recent.get('a:32', read),
    ]);
    release();
    const [first, second] = await both;
    expect(read).toHaveBeenCalledTimes(1);
    expect(first?.bytes).toBe(second?.bytes);
  });

  it('keeps at most its byte budget, evicting the least recently used', async () => {
    const recent = new RecentRenditions(250);
    recent.keep('a', rendition(100));
    recent.keep('b', rendition(100));
    await recent.get('a', () => Promise.resolve(null)); // a is now the newest
    recent.keep('c', rendition(100)); // 300 > 250: b goes
    const read = jest.fn(() => Promise.resolve(rendition(100)));
    await recent.get('a', read);
    await recent.get('c', read);
    expect(read).not.toHaveBeenCalled();
    await recent.get('b', read);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('does not keep a rendition larger than its whole budget, nor a missing one', async () => {
    const recent = new RecentRenditions(50);
    recent.keep('big', rendition(100));
    const read = jest.fn(() => Promise.resolve(null));
    await recent.get('big', read);
    await recent.get('big', read);
    expect(read).toHaveBeenCalledTimes(2);
  });
});
