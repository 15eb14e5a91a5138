import { Readable } from 'node:stream';
import { Test } from '@nestjs/testing';
import { AssetBytes } from '../assets/asset-bytes/asset-bytes';
import type { CallContext } from '../common/call-context';
import type { Transaction } from '../database/database.service';
import { ProjectNotFoundException } from '../project-scope/project-scope.errors';
import { ProjectScope } from '../project-scope/project-scope.repository';
import { BRAND_KIT_FILES } from './brand-kit-images';
import { NoBrandKitException } from './brand-kit.errors';
import { BrandKitRepository } from './brand-kit.repository';
import { BrandKitService, slugOf } from './brand-kit.service';
import { kitFilePrompt } from './kit-file-prompt';

const PROJECT = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20';
const LOGO = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e21';
const transaction = {} as Transaction;
const context = {
  caller: { userId: 'user-1', admin: false },
  signal: new AbortController().signal,
} as unknown as CallContext;

/** Kit files made from LOGO, newest first: each name once, `extra` older copies. */
const kitFiles = (names: readonly string[]) =>
  names.map((name, index) => ({
    id: `asset-${index}`,
    projectId: PROJECT,
    fileName: name,
    byteSize: 3,
  }));

describe('BrandKitService', () => {
  let service: BrandKitService;
  let kits: {
    chosenLogoId: jest.Mock;
    imageAsset: jest.Mock;
    chosenLogoOf: jest.Mock;
    kitFiles: jest.Mock;
  };
  let scope: { nameOf: jest.Mock };
  let bytes: { open: jest.Mock };

  beforeEach(async () => {
    kits = {
      chosenLogoId: jest.fn().mockResolvedValue(LOGO),
      imageAsset: jest.fn().mockResolvedValue({ id: LOGO, prompt: 'p' }),
      chosenLogoOf: jest.fn().mockResolvedValue(LOGO),
      kitFiles: jest.fn().mockResolvedValue(kitFiles(BRAND_KIT_FILES)),
    };
    scope = { nameOf: jest.fn().mockResolvedValue('Acme Rockets!') };
    bytes = {
      open: jest.fn(() => Promise.resolve(Readable.from([Buffer.from('png')]))),
    };
    const moduleRef = await Test.createTestingModule({
      providers: [
        BrandKitService,
        { provide: BrandKitRepository, useValue: kits },
        { provide: ProjectScope, useValue: scope },
        { provide: AssetBytes, useValue: bytes },
      ],
    }).compile();
    service = moduleRef.get(BrandKitService);
  });

  it("a kit is made from the asset named, else from the LOGO section's chosen one", async () => {
    await expect(
      service.kitSource(transaction, PROJECT, 'named'),
    ).resolves.toMatchObject({ logoId: 'named' });
    expect(kits.chosenLogoId).not.toHaveBeenCalled();
    await expect(
      service.kitSource(transaction, PROJECT, undefined),
    ).resolves.toEqual({ logoId: LOGO, source: { id: LOGO, prompt: 'p' } });
  });

  it('nothing chosen and nothing named: no logo to make a kit from', async () => {
    kits.chosenLogoId.mockResolvedValue(undefined);
    await expect(
      service.kitSource(transaction, PROJECT, undefined),
    ).resolves.toEqual({});
    expect(kits.imageAsset).not.toHaveBeenCalled();
  });

  it('the zip is named after the project and holds every kit file, read only as the zip reaches it', async () => {
    const zip = await service.zip(PROJECT, context);
    expect(zip.filename).toBe('acme-rockets-brand-kit.zip');
    expect(scope.nameOf).toHaveBeenCalledWith(PROJECT, 'user-1');
    // yazl starts the first file at once; the rest wait for the reader.
    expect(bytes.open.mock.calls.length).toBeLessThanOrEqual(1);
    const chunks: Buffer[] = [];
    for await (const chunk of zip.body) chunks.push(chunk as Buffer);
    expect(bytes.open).toHaveBeenCalledTimes(BRAND_KIT_FILES.length);
    const text = Buffer.concat(chunks).toString('latin1');
    for (const name of BRAND_KIT_FILES) expect(text).toContain(name);
  });

  it('a project the caller may not read is 404; a kit missing a file is 404 no brand kit', async () => {
    scope.nameOf.mockResolvedValueOnce(undefined);
    await expect(service.zip(PROJECT, context)).rejects.toBeInstanceOf(
      ProjectNotFoundException,
    );
    await expect(service.zip('not-an-id', context)).rejects.toBeInstanceOf(
      ProjectNotFoundException,
    );
    kits.kitFiles.mockResolvedValue(kitFiles(BRAND_KIT_FILES.slice(1)));
    await expect(service.zip(PROJECT, context)).rejects.toBeInstanceOf(
      NoBrandKitException,
    );
    kits.chosenLogoOf.mockResolvedValue(undefined);
    await expect(service.zip(PROJECT, context)).rejects.toBeInstanceOf(
      NoBrandKitException,
    );
  });

  it('a kit file whose bytes cannot be read fails the zip stream, and nothing goes unhandled', async () => {
    bytes.open.mockResolvedValueOnce(undefined);
    const unhandled = jest.fn();
    process.on('uncaughtException', unhandled);
    try {
      const zip = await service.zip(PROJECT, context);
      const read = async () => {
        for await (const chunk of zip.body) void chunk;
      };
      await expect(read()).rejects.toThrow('has no stored bytes');
    } finally {
      process.off('uncaughtException', unhandled);
    }
    expect(unhandled).not.toHaveBeenCalled();
  });

  it('names a kit after its project in lowercase ASCII words', () => {
    expect(slugOf('Café Acme — Ünited!')).toBe('cafe-acme-united');
    expect(slugOf('日本')).toBe('project');
    expect(slugOf('a'.repeat(100))).toHaveLength(60);
  });

  it("zips the newest file of each name, in the kit's order, each opened with its size and the reader's signal", async () => {
    const newest = BRAND_KIT_FILES.map((name) => ({
      id: `new-${name}`,
      projectId: PROJECT,
      fileName: name,
      byteSize: 3,
    }));
    const older = newest.map((row) => ({ ...row, id: `old-${row.fileName}` }));
    kits.kitFiles.mockResolvedValue([...newest, ...older]);
    const zip = await service.zip(PROJECT, context);
    const chunks: Buffer[] = [];
    for await (const chunk of zip.body) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('latin1');
    const offsets = BRAND_KIT_FILES.map((name) => text.indexOf(name));
    expect([...offsets].sort((a, b) => a - b)).toEqual(offsets);
    expect(bytes.open.mock.calls.map(([ref]) => ref as unknown)).toEqual(
      newest.map((row) => ({ projectId: PROJECT, assetId: row.id })),
    );
    expect(bytes.open).toHaveBeenCalledWith(
      expect.anything(),
      3,
      context.signal,
    );
  });

  it('a kit file is zipped under its stored file name, whatever its prompt says', async () => {
    // Rows as the migration left them: the name is the stored fileName.
    kits.kitFiles.mockResolvedValue(
      kitFiles(BRAND_KIT_FILES).map((row) => ({
        ...row,
        prompt: `renamed ${kitFilePrompt(row.fileName, LOGO)}`,
      })),
    );
    const zip = await service.zip(PROJECT, context);
    const chunks: Buffer[] = [];
    for await (const chunk of zip.body) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('latin1');
    for (const name of BRAND_KIT_FILES) expect(text).toContain(name);
    expect(text).not.toContain('renamed');
  });

  it("an admin's read of a kit sees any user's project", async () => {
    const admin = {
      ...context,
      caller: { userId: 'root', admin: true },
    } as CallContext;
    await service.zip(PROJECT, admin);
    expect(scope.nameOf).toHaveBeenCalledWith(PROJECT, undefined);
  });
});
