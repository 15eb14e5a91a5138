/** What the browser flow (browser-flow.ts) saw, for its test to judge. */

export type Generator = 'openapi-fetch' | 'hey-api' | 'orval';

export interface FlowReport {
  created: { status: number; location: string | null };
  progress: string[];
  logoTask: { status: string; assetIds: string[] };
  assetEvents: number;
  cancelled: { status: number; taskStatus: string };
  preview: { status: number; expiresAt: string | null };
  kept: { status: number; assetId: string };
  brandKit: { status: number; fileName: string | null; bytes: number };
  search: {
    status: number;
    names: string[];
    total: number | null;
    thumbnail: string | null;
  };
  sorted: { status: number; names: string[] };
}
