import request from 'supertest';
import sharp from 'sharp';
import {
  AssetsService,
  type ProducedAsset,
} from '../../src/assets/assets.service';
import { encodeIco } from '../../src/brand-kit/ico';
import {
  kitFilePrompt,
  kitFilePromptStart,
} from '../../src/brand-kit/kit-file-prompt';
import { Database } from '../../src/database/database.service';
import { ProjectScope } from '../../src/project-scope/project-scope.repository';
import type { SiteReport } from '../../src/site-check/site-report';
import { readProject, sectionOf } from './task-client';
import type { TestApp } from './test-app';

/**
 * Keeps an asset in a section of the project through the app's own asset
 * service and database (the real store: rows, and bytes in the database
 * or the bucket), as a task's result is kept. For the parts of a site the
 * publish suites need without running the tasks that make them: a
 * landing page whose head the test knows, a site check's report, a brand
 * kit's files, an og graphic.
 */
export async function keepPart(
  t: TestApp,
  projectId: string,
  sectionType: string,
  result: ProducedAsset,
): Promise<string> {
  const section = sectionOf(await readProject(t, projectId), sectionType);
  const staged = await t.app
    .get(AssetsService)
    .stageResult(
      { projectId, sectionId: section.id },
      result,
      new AbortController().signal,
    );
  // As the task runner does: the project's version moves with its new asset.
  await t.app.get(Database).transaction(async (transaction) => {
    await t.app.get(ProjectScope).advance(transaction, {
      projectId,
      missing: () => new Error(`No project ${projectId}`),
    });
    await staged.keepIn(transaction);
  });
  await staged.kept();
  return staged.id;
}

/** A landing page kept in CODE and chosen there. */
export async function chosenPage(
  t: TestApp,
  projectId: string,
  html: string,
): Promise<string> {
  const id = await keepPart(t, projectId, 'CODE', {
    kind: 'landing-page',
    contentType: 'text/html',
    bytes: Buffer.from(html),
    prompt: 'A landing page',
    model: 'test',
  });
  const code = sectionOf(await readProject(t, projectId), 'CODE');
  await request(t.server)
    .put(`/api/projects/${projectId}/sections/${code.id}/selection`)
    .send({ assetId: id })
    .expect(200);
  return id;
}

/** A site check's report of `pageId` kept in TESTING, with these findings. */
export function keepReport(
  t: TestApp,
  projectId: string,
  pageId: string,
  findings: SiteReport['findings'],
): Promise<string> {
  const errors = findings.filter((f) => f.severity === 'error').length;
  const report: SiteReport = {
    assetId: pageId,
    passed: errors === 0,
    score: Math.max(0, 100 - 10 * findings.length),
    counts: {
      error: errors,
      warning: findings.filter((f) => f.severity === 'warning').length,
      info: findings.filter((f) => f.severity === 'info').length,
    },
    findings,
    summary: `${findings.length} findings`,
    checkedAt: new Date().toISOString(),
  };
  return keepPart(t, projectId, 'TESTING', {
    kind: 'site-report',
    contentType: 'application/json',
    bytes: Buffer.from(JSON.stringify(report)),
    prompt: `Site check of ${pageId}`,
    model: 'test',
  });
}

const square = (size: number, color: string) =>
  sharp({
    create: { width: size, height: size, channels: 4, background: color },
  })
    .png()
    .toBuffer();

/** A brand kit's favicon.ico and apple-touch-icon.png, kept in ICONS. */
export async function keepKit(t: TestApp, projectId: string, logoId: string) {
  const favicon = encodeIco([{ size: 32, png: await square(32, '#0044ff') }]);
  const touch = await square(180, '#0044ff');
  for (const [name, contentType, bytes] of [
    ['favicon.ico', 'image/x-icon', favicon],
    ['apple-touch-icon.png', 'image/png', touch],
  ] as const) {
    await keepPart(t, projectId, 'ICONS', {
      kind: 'brand-kit',
      contentType,
      bytes,
      prompt: kitFilePrompt(name, logoId),
      model: 'test',
      replaces: kitFilePromptStart(name),
      fileName: name,
    });
  }
  return { favicon, touch };
}

/** An og graphic (og.png, 1200×630), kept in GRAPHICS. */
export async function keepOgGraphic(t: TestApp, projectId: string) {
  const bytes = await sharp({
    create: { width: 1200, height: 630, channels: 4, background: '#ffaa00' },
  })
    .png()
    .toBuffer();
  await keepPart(t, projectId, 'GRAPHICS', {
    kind: 'graphic',
    contentType: 'image/png',
    bytes,
    prompt: 'og graphic',
    model: 'test',
    fileName: 'og.png',
  });
  return bytes;
}
