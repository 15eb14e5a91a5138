import { AssetUrls } from '../assets/asset-urls';
import type { AssetsConfig } from '../assets/assets.config';
import type { AuthConfig } from '../auth/auth.config';
import type { ChangeEvent } from '../change-log/change-event';
import { EventPresenter } from './presented-event';

const presenterWith = (mode: 'none' | 'oidc') =>
  new EventPresenter(
    new AssetUrls(
      { mode } as AuthConfig,
      { urlTtlSeconds: 3600, urlSigningKey: 'k'.repeat(32) } as AssetsConfig,
    ),
  );

const asset = {
  id: 'asset-1',
  projectId: 'project-1',
  sectionId: 'section-1',
  kind: 'logo',
  contentType: 'image/png',
  byteSize: 3,
  sha256: 'a'.repeat(64),
  prompt: 'A logo',
  model: 'image-model',
  createdAt: '2026-11-29T00:00:00.000Z',
  fileName: 'logo-asset-1.png',
  width: 1024,
  height: 1024,
};

const event = (type: string, data: object) =>
  ({
    id: '7',
    type,
    projectId: 'project-1',
    userId: 'user-1',
    at: '2026-11-29T00:00:00.000Z',
    data: { ...data, etag: '"3"' },
  }) as ChangeEvent;

/** The event of keeping `asset`, carrying the asset as stored. */
const assetCreated = event('asset.created', {
  assetId: asset.id,
  sectionId: asset.sectionId,
  kind: 'logo',
  asset,
});

describe('EventPresenter', () => {
  it("makes an asset's url and thumbnailUrl as the asset routes do, for the stream's origin", () => {
    const sent = presenterWith('none').present(
      assetCreated,
      'https://replica-b.example.com',
    );
    expect(sent.data).toEqual({
      assetId: asset.id,
      sectionId: asset.sectionId,
      kind: 'logo',
      asset: {
        ...asset,
        url: 'https://replica-b.example.com/api/projects/project-1/assets/asset-1/content',
        thumbnailUrl:
          'https://replica-b.example.com/api/projects/project-1/assets/asset-1/content?size=128',
      },
      etag: '"3"',
    });
  });

  it('signs the url as it is sent when URLs are signed, so a late reader still gets a working one', () => {
    const sent = presenterWith('oidc').present(
      assetCreated,
      'https://api.example.com',
    );
    const { url } = (sent.data as { asset: { url: string } }).asset;
    const expires = Number(new URL(url).searchParams.get('expires'));
    expect(expires * 1000).toBeGreaterThan(Date.now());
    expect(new URL(url).searchParams.get('signature')).toMatch(/^[\w-]{43}$/);
  });

  it('marks an event recorded without what changed as truncated, so the client refetches', () => {
    const presenter = presenterWith('none');
    const old = [
      event('asset.created', { assetId: 'a', sectionId: null, kind: 'logo' }),
      event('task.updated', {
        taskId: 't',
        type: 'logo',
        status: 'QUEUED',
        attempts: 0,
      }),
      event('section.updated', { sectionId: 's', status: 'REVIEW' }),
      event('project.updated', { fields: ['name'] }),
    ];
    for (const recorded of old) {
      expect(presenter.present(recorded, '').data).toEqual({
        ...recorded.data,
        truncated: true,
      });
    }
  });

  it('sends the other events as recorded', () => {
    const presenter = presenterWith('none');
    for (const recorded of [
      event('asset.deleted', { assetId: 'a' }),
      event('agent.updated', { agentId: 'g', status: 'IDLE' }),
      event('task.updated', {
        taskId: 't',
        type: 'logo',
        status: 'QUEUED',
        attempts: 0,
        task: { id: 't' },
      }),
    ]) {
      expect(presenter.present(recorded, '')).toEqual(recorded);
    }
  });
});
