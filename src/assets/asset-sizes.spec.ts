import { Readable } from 'node:stream';
import sharp from 'sharp';
import { AssetSizesBackfill, BACKFILL_BATCH, sizeOfImage } from './asset-sizes';
import type { AssetBytes } from './asset-bytes/asset-bytes';
import type { AssetsRepository, UnsizedAsset } from './assets.repository';

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#fff' } })
    .png()
    .toBuffer();

const unsized = (id: string): UnsizedAsset => ({
  id,
  projectId: 'p',
  byteSize: 10,
  contentType: 'image/png',
});

function backfillOver(rows: UnsizedAsset[], bytesOf: (id: string) => Buffer) {
  const repository = {
    unsized: jest.fn((after: string, limit: number) =>
      Promise.resolve(rows.filter((row) => row.id > after).slice(0, limit)),
    ),
    setSize: jest.fn().mockResolvedValue(undefined),
  };
  const bytes = {
    open: jest.fn((ref: { assetId: string }) =>
      Promise.resolve(Readable.from([bytesOf(ref.assetId)])),
    ),
  };
  return {
    backfill: new AssetSizesBackfill(
      repository as unknown as AssetsRepository,
      bytes as unknown as AssetBytes,
    ),
    repository,
  };
}

describe('asset sizes', () => {
  it("reads a raster image's size from its header; anything else has none", async () => {
    expect(sizeOfImage(await png(30, 20))).toEqual({ width: 30, height: 20 });
    expect(sizeOfImage(Buffer.from('<svg/>'))).toEqual({
      width: null,
      height: null,
    });
  });

  it('sizes every unsized image batch by batch, passing an unreadable one instead of reading it again', async () => {
    const rows = Array.from({ length: BACKFILL_BATCH + 3 }, (_, index) =>
      unsized(`id-${String(index).padStart(3, '0')}`),
    );
    const image = await png(8, 4);
    const { backfill, repository } = backfillOver(rows, (id) =>
      id === 'id-001' ? Buffer.from('broken') : image,
    );
    await expect(backfill.run()).resolves.toBe(rows.length - 1);
    expect(repository.unsized).toHaveBeenCalledTimes(2);
    expect(repository.unsized.mock.calls[1]).toEqual([
      rows[BACKFILL_BATCH - 1].id,
      BACKFILL_BATCH,
    ]);
    expect(repository.setSize).not.toHaveBeenCalledWith(
      'id-001',
      expect.anything(),
    );
    expect(repository.setSize).toHaveBeenCalledWith('id-000', {
      width: 8,
      height: 4,
    });
  });

  it('stops at shutdown', async () => {
    const { backfill, repository } = backfillOver([unsized('a')], () =>
      Buffer.alloc(0),
    );
    await backfill.onApplicationShutdown();
    await expect(backfill.run()).resolves.toBe(0);
    expect(repository.unsized).not.toHaveBeenCalled();
  });
});
