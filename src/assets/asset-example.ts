import type { AssetDto } from '../projects/dto/project-responses.dto';

const PROJECT_ID = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20';
const ID = '019aa8f3-0b4e-7a21-8c3d-5e6f7a8b9c0d';

/** One kept logo, as the documentation shows it. */
export const ASSET_EXAMPLE: AssetDto = {
  id: ID,
  projectId: PROJECT_ID,
  sectionId: '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e21',
  kind: 'logo',
  contentType: 'image/png',
  byteSize: 1_482_113,
  sha256: '3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b',
  url: `https://api.example.com/api/projects/${PROJECT_ID}/assets/${ID}/content`,
  prompt:
    'A modern logo for "Acme" in #0044ff and white, on a transparent or white background.',
  model: 'gpt-image-2.5-sunburst',
  createdAt: '2026-11-22T03:39:09.321Z',
};
