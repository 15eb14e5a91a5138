import { Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { CallContext } from '../common/call-context';
import { newId } from '../common/ids';
import { Database } from '../database/database.service';
import { InputValidationException } from '../failures/input-validation.error';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { HostedLogos } from '../logo/hosted-logos';
import { logoConfig } from '../logo/logo.config';
import { LogoService } from '../logo/logo.service';
import { ProjectNotFoundException } from '../project-scope/project-scope.errors';
import { ProjectScope } from '../project-scope/project-scope.repository';
import { WorkspaceStatuses } from '../sections/workspace-statuses.repository';
import { AssetBytes } from './asset-bytes/asset-bytes';
import { AssetUrls } from './asset-urls';
import { assetsConfig } from './assets.config';
import {
  AssetLimitReachedException,
  AssetNotFoundException,
  AssetStorageUnavailableError,
  AssetUrlRefusedException,
  FileTooLargeException,
  PreviewedLogoNotFoundException,
  TooManyPixelsException,
  UnsupportedImageTypeException,
} from './assets.errors';
import { AssetsRepository } from './assets.repository';
import {
  AssetsService,
  UPLOADED_MODEL,
  type ProducedAsset,
} from './assets.service';
import { KeepPreviewedLogoDto } from './dto/keep-previewed-logo.dto';
import type { KeepLogoBody } from './keep-logo-body.pipe';
import { ParkedLogos } from './parked-logos';
import { UploadedLogo } from './uploaded-logo';
import type { AssetRecord } from './dto/asset.dto';
import { SvgRefusedError } from '../svg-safety/svg-refused.error';

const PROJECT = newId();
const ASSET = newId();
const MAX = 3;
const BASE = 'https://api.example.com';

const contextOf = (caller?: { userId: string; admin: boolean }) =>
  ({
    caller,
    signal: new AbortController().signal,
    baseUrl: () => BASE,
    baseUrlOrRelative: () => BASE,
  }) as unknown as CallContext;
const ANYONE = contextOf();
const ANN = contextOf({ userId: 'ann', admin: false });

const LOGO_REQUEST = {
  companyName: 'Acme',
  style: 'minimal',
  colors: ['blue'],
} as unknown as KeepLogoBody;

const previewedAt = (logoUrl: string) =>
  Object.assign(new KeepPreviewedLogoDto(), { logoUrl });

const UPLOAD_LIMITS = { maxBytes: 4096, maxPixels: 100 * 100 };

/** A PNG's signature and IHDR chunk: enough for its size to be read. */
function pngOf(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  bytes.writeUInt32BE(13, 8);
  bytes.write('IHDR', 12, 'latin1');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes;
}

const stagedBytesOf = (bytes: { stage: jest.Mock }) =>
  (bytes.stage.mock.calls[0][0] as { bytes: Buffer }).bytes;

const imageOf = (name: string) => ({
  bytes: Buffer.from(name),
  type: { mediaType: 'image/png' },
  prompt: 'a prompt',
  model: 'image-model',
});

const KEY = {
  recordId: 'record-1',
  fingerprint: 'body-1',
  answerOf: () => ({ status: 201, headers: {}, body: '{}' }),
};

async function build() {
  const transaction = { name: 'transaction' };
  const inTransaction = jest.fn((work: (t: unknown) => unknown) =>
    work(transaction),
  );
  const db = { transaction: inTransaction, largeTransaction: inTransaction };
  const logo = {
    generateImage: jest.fn().mockResolvedValue(imageOf('new')),
    formatFor: jest.fn(() => 'png'),
  };
  const rows = {
    countOfProject: jest.fn().mockResolvedValue(0),
    reserveSlot: jest.fn().mockResolvedValue('reserved'),
    releaseSlot: jest.fn().mockResolvedValue(undefined),
    logoSectionId: jest.fn().mockResolvedValue('section-logo'),
    insert: jest.fn().mockResolvedValue(undefined),
    delete: jest.fn().mockResolvedValue(true),
    deleteReplaced: jest.fn().mockResolvedValue([]),
    find: jest.fn().mockResolvedValue(null),
  };
  const staged = {
    large: false,
    writeIn: jest.fn().mockResolvedValue(undefined),
    discard: jest.fn().mockResolvedValue(undefined),
  };
  const bytes = {
    checkReachable: jest.fn().mockResolvedValue(undefined),
    stage: jest.fn().mockResolvedValue(staged),
    forget: jest.fn().mockResolvedValue(undefined),
    open: jest.fn().mockResolvedValue(undefined),
  };
  const urls = {
    urlOf: jest.fn(() => `${BASE}/asset`),
    answerUrlsOf: jest.fn(() => ({
      url: `${BASE}/asset`,
      thumbnailUrl: `${BASE}/asset?size=128`,
    })),
    allows: jest.fn(() => true),
    secondsLeft: jest.fn(() => undefined),
  };
  const idempotency = {
    runAnsweredByWork: jest.fn(
      (_key: unknown, _ms: number, work: () => unknown) => work(),
    ),
    answerInTransaction: jest.fn().mockResolvedValue(undefined),
  };
  const parked = {
    find: jest.fn().mockResolvedValue(undefined),
    park: jest.fn().mockResolvedValue(undefined),
  };
  const scope = {
    hold: jest.fn().mockResolvedValue(true),
    advance: jest.fn().mockResolvedValue(7),
    precheck: jest.fn(),
  };
  const statuses = { refresh: jest.fn().mockResolvedValue(undefined) };
  const hostedLogos = { read: jest.fn().mockResolvedValue(undefined) };
  const moduleRef = await Test.createTestingModule({
    providers: [
      AssetsService,
      { provide: LogoService, useValue: logo },
      { provide: AssetsRepository, useValue: rows },
      { provide: AssetBytes, useValue: bytes },
      { provide: AssetUrls, useValue: urls },
      { provide: IdempotencyService, useValue: idempotency },
      { provide: Database, useValue: db },
      { provide: ParkedLogos, useValue: parked },
      { provide: ProjectScope, useValue: scope },
      { provide: WorkspaceStatuses, useValue: statuses },
      { provide: HostedLogos, useValue: hostedLogos },
      {
        provide: assetsConfig.KEY,
        useValue: { maxPerProject: MAX, upload: UPLOAD_LIMITS },
      },
      {
        provide: logoConfig.KEY,
        useValue: { imageApi: { model: 'image-model', deadlineMs: 1000 } },
      },
    ],
  }).compile();
  return {
    service: moduleRef.get(AssetsService),
    transaction,
    logo,
    rows,
    staged,
    bytes,
    urls,
    idempotency,
    parked,
    scope,
    statuses,
    hostedLogos,
  };
}

describe('AssetsService', () => {
  describe('assertRoom', () => {
    it('allows assets up to ASSET_MAX_PER_PROJECT and refuses one more with 409', async () => {
      const { service, rows, transaction } = await build();
      const room = (adding?: number) =>
        service.assertRoom(transaction as never, PROJECT, adding);
      rows.countOfProject.mockResolvedValue(MAX - 1);
      await expect(room()).resolves.toBeUndefined();
      await expect(room(2)).rejects.toBeInstanceOf(AssetLimitReachedException);
      rows.countOfProject.mockResolvedValue(MAX);
      await expect(room()).rejects.toBeInstanceOf(AssetLimitReachedException);
    });
  });

  describe('keepLogo', () => {
    it('keeps a new logo: the model paid once, the row and bytes kept with the statuses, the slot given back in their transaction', async () => {
      const { service, logo, rows, staged, statuses, scope } = await build();
      await service.keepLogo(PROJECT, LOGO_REQUEST, ANN);
      expect(logo.generateImage).toHaveBeenCalledTimes(1);
      expect(scope.advance).toHaveBeenCalledWith(
        expect.anything(),
        expect.objectContaining({ projectId: PROJECT, owner: 'ann' }),
      );
      expect(rows.insert).toHaveBeenCalledWith(
        expect.anything(),
        expect.objectContaining({
          projectId: PROJECT,
          sectionId: 'section-logo',
          kind: 'logo',
          model: 'image-model',
        }),
      );
      expect(statuses.refresh).toHaveBeenCalledWith(expect.anything(), PROJECT);
      expect(staged.writeIn).toHaveBeenCalledTimes(1);
      expect(staged.discard).not.toHaveBeenCalled();
      const slotId = (rows.reserveSlot.mock.calls[0][3] as { id: string }).id;
      expect(rows.releaseSlot).toHaveBeenCalledWith(slotId, expect.anything());
      // Not again on its own: that transaction deleted nothing.
      expect(rows.releaseSlot).toHaveBeenCalledTimes(1);
    });

    it('a malformed or unknown project is 404 before the model is paid', async () => {
      const { service, logo, scope } = await build();
      await expect(
        service.keepLogo('nope', LOGO_REQUEST, ANYONE),
      ).rejects.toBeInstanceOf(ProjectNotFoundException);
      scope.hold.mockResolvedValue(false);
      await expect(
        service.keepLogo(PROJECT, LOGO_REQUEST, ANYONE),
      ).rejects.toBeInstanceOf(ProjectNotFoundException);
      expect(logo.generateImage).not.toHaveBeenCalled();
    });

    it('a project with no free slot is 409 before the model is paid', async () => {
      const { service, logo, rows } = await build();
      rows.reserveSlot.mockResolvedValue('full');
      await expect(
        service.keepLogo(PROJECT, LOGO_REQUEST, ANYONE),
      ).rejects.toBeInstanceOf(AssetLimitReachedException);
      expect(rows.reserveSlot).toHaveBeenCalledWith(
        expect.anything(),
        PROJECT,
        MAX,
        expect.objectContaining({ id: expect.any(String) as string }),
      );
      expect(logo.generateImage).not.toHaveBeenCalled();
    });

    it('a bucket that cannot take bytes is found out before the model is paid, and the slot is given back', async () => {
      const { service, logo, bytes, rows } = await build();
      bytes.checkReachable.mockRejectedValue(
        new AssetStorageUnavailableError('connect timeout'),
      );
      await expect(
        service.keepLogo(PROJECT, LOGO_REQUEST, ANYONE),
      ).rejects.toBeInstanceOf(AssetStorageUnavailableError);
      expect(logo.generateImage).not.toHaveBeenCalled();
      expect(rows.releaseSlot).toHaveBeenCalledTimes(1);
    });

    it('the room is checked again when the logo is kept: 409 then, and the staged bytes discarded', async () => {
      const { service, rows, staged } = await build();
      rows.countOfProject.mockResolvedValue(MAX);
      await expect(
        service.keepLogo(PROJECT, LOGO_REQUEST, ANYONE),
      ).rejects.toBeInstanceOf(AssetLimitReachedException);
      expect(rows.insert).not.toHaveBeenCalled();
      expect(staged.discard).toHaveBeenCalledTimes(1);
      expect(rows.releaseSlot).toHaveBeenCalledTimes(1);
    });

    it('with an Idempotency-Key, the answer commits in the transaction that keeps the row', async () => {
      const { service, idempotency, transaction } = await build();
      await service.keepLogo(PROJECT, LOGO_REQUEST, ANYONE, KEY);
      expect(idempotency.runAnsweredByWork).toHaveBeenCalledWith(
        KEY,
        11_000,
        expect.any(Function),
      );
      expect(idempotency.answerInTransaction).toHaveBeenCalledWith(
        transaction,
        KEY,
        expect.anything(),
      );
    });

    it('a paid logo whose storage was unavailable is parked for a retry with the same key, and the failure passed on', async () => {
      const { service, bytes, parked, logo } = await build();
      const unavailable = new AssetStorageUnavailableError('503');
      bytes.stage.mockRejectedValue(unavailable);
      await expect(
        service.keepLogo(PROJECT, LOGO_REQUEST, ANYONE, KEY),
      ).rejects.toBe(unavailable);
      expect(parked.park).toHaveBeenCalledWith(
        KEY,
        await (logo.generateImage.mock.results[0].value as Promise<unknown>),
      );
    });

    it('nothing is parked without a key, nor for a failure other than the storage', async () => {
      const { service, bytes, parked, rows } = await build();
      bytes.stage.mockRejectedValue(new AssetStorageUnavailableError('503'));
      await expect(
        service.keepLogo(PROJECT, LOGO_REQUEST, ANYONE),
      ).rejects.toBeInstanceOf(AssetStorageUnavailableError);
      bytes.stage.mockResolvedValue({
        large: false,
        writeIn: jest.fn(),
        discard: jest.fn(),
      });
      rows.countOfProject.mockResolvedValue(MAX);
      await expect(
        service.keepLogo(PROJECT, LOGO_REQUEST, ANYONE, KEY),
      ).rejects.toBeInstanceOf(AssetLimitReachedException);
      expect(parked.park).not.toHaveBeenCalled();
    });

    it('a retry finds the parked logo of its key and keeps it without paying the model again', async () => {
      const { service, parked, logo, bytes } = await build();
      const parkedImage = imageOf('parked');
      parked.find.mockResolvedValue(parkedImage);
      await service.keepLogo(PROJECT, LOGO_REQUEST, ANYONE, KEY);
      expect(parked.find).toHaveBeenCalledWith(KEY, expect.any(String));
      expect(logo.generateImage).not.toHaveBeenCalled();
      expect(bytes.stage).toHaveBeenCalledWith(
        expect.objectContaining({ bytes: parkedImage.bytes }),
        expect.anything(),
      );
    });

    it('a previewed logo is kept as it is, without the model; an expired one is 404', async () => {
      const { service, hostedLogos, logo, bytes } = await build();
      const url = `${BASE}/api/ai/logos/9f2c4e1ab37d40c58e0f6a2b1c3d4e5f.png`;
      await expect(
        service.keepLogo(PROJECT, previewedAt(url), ANYONE),
      ).rejects.toBeInstanceOf(PreviewedLogoNotFoundException);
      const previewed = imageOf('previewed');
      hostedLogos.read.mockResolvedValue(previewed);
      await service.keepLogo(PROJECT, previewedAt(url), ANYONE);
      expect(logo.generateImage).not.toHaveBeenCalled();
      expect(bytes.stage).toHaveBeenCalledWith(
        expect.objectContaining({ bytes: previewed.bytes }),
        expect.anything(),
      );
    });

    it('a logoUrl that is not a hosted logo of this service is 400, and nothing is fetched or reserved', async () => {
      const { service, hostedLogos, rows } = await build();
      for (const url of [
        'https://elsewhere.example/api/ai/logos/9f2c4e1ab37d40c58e0f6a2b1c3d4e5f.png',
        `${BASE}/api/projects`,
      ]) {
        await expect(
          service.keepLogo(PROJECT, previewedAt(url), ANYONE),
        ).rejects.toBeInstanceOf(InputValidationException);
      }
      expect(hostedLogos.read).not.toHaveBeenCalled();
      expect(rows.reserveSlot).not.toHaveBeenCalled();
    });
  });

  describe('keepLogo with an upload', () => {
    it('keeps an uploaded PNG as it is, sized and named from its bytes and sent name, without the model', async () => {
      const { service, logo, rows, bytes } = await build();
      const png = pngOf(64, 48);
      const kept = await service.keepLogo(
        PROJECT,
        new UploadedLogo(png, 'C:\\logos\\Acme Logo.jpeg'),
        ANN,
      );
      expect(logo.generateImage).not.toHaveBeenCalled();
      expect(stagedBytesOf(bytes).equals(png)).toBe(true);
      expect(rows.insert).toHaveBeenCalledWith(
        expect.anything(),
        expect.objectContaining({
          contentType: 'image/png',
          fileName: 'Acme-Logo.png',
          width: 64,
          height: 48,
          model: UPLOADED_MODEL,
          prompt: '',
        }),
      );
      expect('kept' in kept && kept.kept.asset.thumbnailUrl).toBe(
        `${BASE}/asset?size=128`,
      );
    });

    it('judges the bytes, never the declared type: anything but PNG, JPEG, WebP or SVG is 415', async () => {
      const { service, rows } = await build();
      for (const bytes of [
        Buffer.from('GIF89a\x01\x00'),
        Buffer.from('%PDF-1.7'),
        Buffer.from('plain text, not markup'),
      ]) {
        await expect(
          service.keepLogo(PROJECT, new UploadedLogo(bytes, 'a.png'), ANN),
        ).rejects.toBeInstanceOf(UnsupportedImageTypeException);
      }
      expect(rows.reserveSlot).not.toHaveBeenCalled();
    });

    it('a file over ASSET_UPLOAD_MAX_BYTES is 413, a raster over ASSET_UPLOAD_MAX_PIXELS (or unsized) is 400', async () => {
      const { service, rows } = await build();
      const upload = (bytes: Buffer) =>
        service.keepLogo(PROJECT, new UploadedLogo(bytes, 'a.png'), ANN);
      await expect(upload(Buffer.alloc(4097, 0x89))).rejects.toBeInstanceOf(
        FileTooLargeException,
      );
      await expect(upload(pngOf(101, 100))).rejects.toBeInstanceOf(
        TooManyPixelsException,
      );
      await expect(upload(pngOf(0, 0))).rejects.toBeInstanceOf(
        TooManyPixelsException,
      );
      expect(rows.reserveSlot).not.toHaveBeenCalled();
      await expect(upload(pngOf(100, 100))).resolves.toBeDefined();
    });

    it('keeps an uploaded SVG rebuilt without its script, unsized; one that cannot be made safe is 400 svg_unsafe', async () => {
      const { service, rows, bytes } = await build();
      const svg = Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><circle r="4"/></svg>',
      );
      await service.keepLogo(PROJECT, new UploadedLogo(svg, undefined), ANN);
      expect(stagedBytesOf(bytes).toString()).toBe(
        '<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>',
      );
      const row = rows.insert.mock.calls[0][1] as AssetRecord;
      expect(row).toMatchObject({
        contentType: 'image/svg+xml',
        width: null,
        height: null,
      });
      expect(row.fileName).toBe(`logo-${row.id.slice(-8)}.svg`);
      await expect(
        service.keepLogo(
          PROJECT,
          new UploadedLogo(
            Buffer.from('<!DOCTYPE svg [<!ENTITY a "b">]><svg>&a;</svg>'),
            'x.svg',
          ),
          ANN,
        ),
      ).rejects.toBeInstanceOf(SvgRefusedError);
    });

    it('a generated logo is named <kind>-<end of its id>.<ext>', async () => {
      const { service, rows } = await build();
      await service.keepLogo(PROJECT, LOGO_REQUEST, ANN);
      const row = rows.insert.mock.calls[0][1] as AssetRecord;
      expect(row.fileName).toBe(`logo-${row.id.slice(-8)}.png`);
    });
  });

  describe('stageResult', () => {
    const result = (name: string, replaces?: string): ProducedAsset => ({
      kind: replaces === undefined ? 'logo' : 'brand-kit',
      contentType: 'image/png',
      bytes: Buffer.from(name),
      prompt: `${name} from logo x`,
      model: 'm',
      ...(replaces === undefined ? {} : { replaces }),
    });
    const stage = (service: AssetsService, produced: ProducedAsset) =>
      service.stageResult(
        { projectId: PROJECT, sectionId: 'section-logo' },
        produced,
        new AbortController().signal,
      );

    it("keeps a brand-kit file's own name and an image's size; other results get the default name", async () => {
      const { service, rows, transaction } = await build();
      const keep = async (produced: ProducedAsset) => {
        const staged = await service.stageResult(
          { projectId: PROJECT, sectionId: null },
          produced,
          new AbortController().signal,
        );
        await staged.keepIn(transaction as never);
        return rows.insert.mock.calls.at(-1)![1] as AssetRecord;
      };
      const icon = await keep({
        ...result('y'),
        bytes: pngOf(512, 512),
        kind: 'brand-kit',
        fileName: 'icon-512.png',
      });
      expect([icon.fileName, icon.width, icon.height]).toEqual([
        'icon-512.png',
        512,
        512,
      ]);
      const copy = await keep({
        ...result('z'),
        kind: 'marketing-copy',
        contentType: 'application/json',
      });
      expect([copy.fileName, copy.width, copy.height]).toEqual([
        `marketing-copy-${copy.id.slice(-8)}.json`,
        null,
        null,
      ]);
    });

    it("an SVG icon keeps the size its task states (SVG's bytes say none)", async () => {
      const { service, rows, transaction } = await build();
      const staged = await service.stageResult(
        { projectId: PROJECT, sectionId: null },
        {
          ...result('i'),
          kind: 'icon',
          contentType: 'image/svg+xml',
          bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
          fileName: 'cart.svg',
          size: { width: 24, height: 24 },
        },
        new AbortController().signal,
      );
      await staged.keepIn(transaction as never);
      const icon = rows.insert.mock.calls.at(-1)![1] as AssetRecord;
      expect([icon.kind, icon.fileName, icon.width, icon.height]).toEqual([
        'icon',
        'cart.svg',
        24,
        24,
      ]);
    });

    it("a task's result is kept only while the project has room for one more", async () => {
      const { service, rows, transaction } = await build();
      const staged = await stage(service, result('a'));
      rows.countOfProject.mockResolvedValue(MAX);
      await expect(staged.keepIn(transaction as never)).rejects.toBeInstanceOf(
        AssetLimitReachedException,
      );
      expect(rows.insert).not.toHaveBeenCalled();
      rows.countOfProject.mockResolvedValue(MAX - 1);
      await staged.keepIn(transaction as never);
      expect(rows.insert).toHaveBeenCalledWith(
        transaction,
        expect.objectContaining({ id: staged.id, kind: 'logo' }),
      );
      expect(rows.deleteReplaced).not.toHaveBeenCalled();
    });

    it('a derived file is kept whatever the room, replaces the earlier files of its name, and their bytes go after the commit', async () => {
      const { service, rows, bytes, transaction } = await build();
      rows.countOfProject.mockResolvedValue(MAX);
      rows.deleteReplaced.mockResolvedValue(['old-1']);
      const staged = await stage(
        service,
        result('favicon.ico', 'favicon.ico from logo '),
      );
      await staged.keepIn(transaction as never);
      expect(rows.countOfProject).not.toHaveBeenCalled();
      expect(rows.deleteReplaced).toHaveBeenCalledWith(transaction, {
        projectId: PROJECT,
        kind: 'brand-kit',
        promptStart: 'favicon.ico from logo ',
        keptId: staged.id,
      });
      expect(bytes.forget).not.toHaveBeenCalled();
      await staged.kept();
      expect(bytes.forget).toHaveBeenCalledWith([
        { projectId: PROJECT, assetId: 'old-1' },
      ]);
    });

    it('a result not kept has its staged bytes discarded', async () => {
      const { service, staged: bytesStaged } = await build();
      const staged = await stage(service, result('a'));
      await staged.discard();
      expect(bytesStaged.discard).toHaveBeenCalledTimes(1);
    });
  });

  describe('room', () => {
    it('is ASSET_MAX_PER_PROJECT less the counted assets, never below 0', async () => {
      const { service, rows, transaction } = await build();
      rows.countOfProject.mockResolvedValue(MAX - 3);
      await expect(
        service.room(transaction as never, PROJECT),
      ).resolves.toEqual({ free: 3, limit: MAX });
      rows.countOfProject.mockResolvedValue(MAX + 2);
      await expect(
        service.room(transaction as never, PROJECT),
      ).resolves.toEqual({ free: 0, limit: MAX });
    });
  });

  describe('remove', () => {
    it("deletes the row with the project's version moved on and the statuses refreshed, the bytes after the commit", async () => {
      const { service, rows, statuses, bytes, scope } = await build();
      await service.remove(PROJECT, ASSET, undefined, ANN);
      expect(scope.precheck).toHaveBeenCalledWith(
        expect.objectContaining({ projectId: PROJECT, owner: 'ann' }),
      );
      expect(rows.delete).toHaveBeenCalledWith(expect.anything(), {
        projectId: PROJECT,
        assetId: ASSET,
      });
      expect(statuses.refresh).toHaveBeenCalledWith(expect.anything(), PROJECT);
      expect(bytes.forget).toHaveBeenCalledWith([
        { projectId: PROJECT, assetId: ASSET },
      ]);
      expect(bytes.forget.mock.invocationCallOrder[0]).toBeGreaterThan(
        statuses.refresh.mock.invocationCallOrder[0],
      );
    });

    it('an asset not in the project is 404, its bytes untouched', async () => {
      const { service, rows, bytes, statuses } = await build();
      rows.delete.mockResolvedValue(false);
      await expect(
        service.remove(PROJECT, ASSET, undefined, ANYONE),
      ).rejects.toBeInstanceOf(AssetNotFoundException);
      await expect(
        service.remove(PROJECT, 'nope', undefined, ANYONE),
      ).rejects.toBeInstanceOf(AssetNotFoundException);
      expect(statuses.refresh).not.toHaveBeenCalled();
      expect(bytes.forget).not.toHaveBeenCalled();
    });
  });

  describe('get and open', () => {
    it("finds an asset only in the reader's projects, else 404", async () => {
      const { service, rows } = await build();
      await expect(service.get(PROJECT, ASSET, ANN)).rejects.toBeInstanceOf(
        AssetNotFoundException,
      );
      expect(rows.find).toHaveBeenCalledWith(PROJECT, ASSET, 'ann');
    });

    it('an asset URL that is refused tells nothing of the asset', async () => {
      const { service, urls, rows } = await build();
      urls.allows.mockReturnValue(false);
      await expect(
        service.open(PROJECT, ASSET, {}, ANYONE),
      ).rejects.toBeInstanceOf(AssetUrlRefusedException);
      expect(rows.find).not.toHaveBeenCalled();
    });

    it('a row without its bytes is 404, and logged for an operator', async () => {
      const logged = jest
        .spyOn(Logger.prototype, 'error')
        .mockImplementation(() => undefined);
      const { service, rows } = await build();
      rows.find.mockResolvedValue({
        id: ASSET,
        projectId: PROJECT,
        byteSize: 3,
      });
      await expect(
        service.open(PROJECT, ASSET, {}, ANYONE),
      ).rejects.toBeInstanceOf(AssetNotFoundException);
      expect(logged).toHaveBeenCalledWith(expect.stringContaining(ASSET));
      logged.mockRestore();
    });
  });
});
