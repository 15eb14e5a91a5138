import { ApiProperty } from '@nestjs/swagger';
import { THUMBNAIL_SIZE } from '../asset-file-names';

/**
 * A kept logo as every answer that contains it shows it (the asset routes
 * and a project's detail): the one source of its fields. ASSET_COLUMNS
 * (checked against the class by the compiler) drives the repositories'
 * column lists, the INSERT and the JSON a project's detail renders in the
 * database; ASSET_EXAMPLE is typed to the class; the entity
 * (projects/entities/asset.entity.ts) is checked to hold every column.
 */

/** What made an asset: a logo (image model), marketing copy (text model) or a landing page (code model). */
export const ASSET_KINDS = [
  'logo',
  'marketing-copy',
  'landing-page',
  'brand-kit',
  'wireframe',
  'icon',
  'graphic',
  'site-report',
  'deployment',
] as const;
export type AssetKind = (typeof ASSET_KINDS)[number];

const ID = '019aa8f3-0b4e-7a21-8c3d-5e6f7a8b9c0d';
const SCHEMA_ID = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e21';
const PROJECT_ID = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20';
const TIME = '2026-11-22T03:39:09.321Z';
const SHA256 =
  '3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b';

export class AssetDto {
  @ApiProperty({ description: 'The asset id (UUID).', example: SCHEMA_ID })
  id: string;
  @ApiProperty({
    description: 'The project it belongs to.',
    example: PROJECT_ID,
  })
  projectId: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The project's LOGO section, where the asset is shown.",
    example: SCHEMA_ID,
  })
  sectionId: string | null;
  @ApiProperty({
    enum: ASSET_KINDS,
    enumName: 'AssetKind',
    description:
      "What made it: a logo (image model, kept or made by a logo task), marketing copy (JSON: tagline, description, posts) or a landing page (a self-contained HTML page, served sandboxed), or a brand-kit file made from a logo (its `prompt` is the file's name in the kit, e.g. favicon.ico, then the logo it was made from); or a wireframe (JSON: pages of typed sections, the code model's plan of the site; its thumbnail is a preview the service draws); or an icon of an icon set (SVG, 24×24; `model` is `lucide-static <version> (ISC)` for Lucide's, else the model that drew it); or a site check's report of a landing page (`site-report`, JSON: passed, score, counts, findings, summary; `model` names the checking libraries; TESTING); or a published site version's record (`deployment`, JSON: version, url, files with their SHA-256, publishedAt, reportId; DEPLOYMENT).",
    example: 'logo',
  })
  kind: AssetKind;
  @ApiProperty({
    enum: [
      'image/png',
      'image/jpeg',
      'image/webp',
      'image/svg+xml',
      'image/x-icon',
      'application/json',
      'text/html',
    ],
    description:
      'The type of the bytes: for images told from the bytes themselves.',
    example: 'image/png',
  })
  contentType: string;
  @ApiProperty({
    type: 'integer',
    description: 'The size of the bytes.',
    example: 1_482_113,
  })
  byteSize: number;
  @ApiProperty({
    description:
      'Lowercase hex SHA-256 of the bytes; also the ETag the url answers with.',
    example: SHA256,
  })
  sha256: string;
  @ApiProperty({
    format: 'uri',
    description:
      'Where the bytes load, e.g. in an <img> on another origin, without headers. Stable without authentication; with AUTH_MODE=oidc a signed URL made for this answer that stops working within ASSET_URL_TTL_S (at most an hour): take a fresh one from a fresh answer.',
    example: `https://api.example.com/api/projects/${PROJECT_ID}/assets/${SCHEMA_ID}/content`,
  })
  url: string;
  @ApiProperty({
    description: 'The prompt the model was given.',
    example: 'A modern logo for "Acme Rockets".',
  })
  prompt: string;
  @ApiProperty({
    description: 'The model that made it.',
    example: 'gpt-image-2.5-sunburst',
  })
  model: string;
  @ApiProperty({ format: 'date-time', example: TIME })
  createdAt: string;
  @ApiProperty({
    description:
      "A file name for saving the bytes: an uploaded file's own name (made safe, with the extension of its real type), a brand-kit file's name in the kit (favicon.ico, logo.png, …), otherwise `<kind>-<last 8 hex digits of the id>.<ext>` (e.g. logo-7a8b9c0d.png).",
    example: 'logo-7a8b9c0d.png',
  })
  fileName: string;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'Width in pixels of a PNG, JPEG or WebP (as its header states it); null for SVG, icons, text, and for an image kept before sizes were recorded until the background backfill has read it.',
    example: 1024,
  })
  width: number | null;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Height in pixels; null where `width` is.',
    example: 1024,
  })
  height: number | null;
  @ApiProperty({
    type: String,
    format: 'uri',
    nullable: true,
    description: `A small rendition to show in lists: for PNG, JPEG and WebP the url's ${THUMBNAIL_SIZE}-pixel square PNG (\`size=${THUMBNAIL_SIZE}\`, made once and stored); for SVG the url itself (it scales); for a wireframe the same rendition of its drawn preview; null for anything else. Signed and expiring as \`url\` is.`,
    example: `https://api.example.com/api/projects/${PROJECT_ID}/assets/${SCHEMA_ID}/content?size=${THUMBNAIL_SIZE}`,
  })
  thumbnailUrl: string | null;
}

/**
 * An asset as stored: every field but its url and thumbnailUrl, which each
 * answer makes.
 */
export type AssetRecord = Omit<AssetDto, 'url' | 'thumbnailUrl'>;

/**
 * The stored fields, in the order the API writes them: each field of
 * AssetRecord exactly once (a field missing or unknown fails to compile).
 * The columns of every SELECT and of the INSERT.
 */
export const ASSET_COLUMNS = Object.keys({
  id: true,
  projectId: true,
  sectionId: true,
  kind: true,
  contentType: true,
  byteSize: true,
  sha256: true,
  prompt: true,
  model: true,
  createdAt: true,
  fileName: true,
  width: true,
  height: true,
} satisfies { [K in keyof AssetRecord]-?: true }) as Array<keyof AssetRecord>;

/** An asset with its urls made: the member of the asset routes' answers. */
export const toAssetDto = (
  asset: AssetRecord,
  urls: { url: string; thumbnailUrl: string | null },
): AssetDto => ({ ...asset, ...urls });

/** One kept logo, as the documentation shows it. */
export const ASSET_EXAMPLE: AssetDto = {
  id: ID,
  projectId: PROJECT_ID,
  sectionId: SCHEMA_ID,
  kind: 'logo',
  contentType: 'image/png',
  byteSize: 1_482_113,
  sha256: SHA256,
  url: `https://api.example.com/api/projects/${PROJECT_ID}/assets/${ID}/content`,
  prompt:
    'A modern logo for "Acme" in #0044ff and white, on a transparent or white background.',
  model: 'gpt-image-2.5-sunburst',
  createdAt: TIME,
  fileName: 'logo-7a8b9c0d.png',
  width: 1024,
  height: 1024,
  thumbnailUrl: `https://api.example.com/api/projects/${PROJECT_ID}/assets/${ID}/content?size=${THUMBNAIL_SIZE}`,
};
