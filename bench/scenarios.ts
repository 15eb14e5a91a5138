import type { AssetTargets } from './kept-logos';
import type { RequestPlan } from './load-protocol';

/**
 * The timed scenarios, in the order each round runs them (a paced one right
 * after the scenario it paces).
 * `server` says which process serves it: `main` holds 100,000 projects over
 * 5,000 users; `small` holds 1,000 projects (for "list all").
 */

export type ScenarioName =
  | 'get-by-id'
  | 'get-by-id-oidc'
  | 'list-by-user'
  | 'list-all'
  | 'create'
  | 'create-keyed'
  | 'create-replay'
  | 'patch'
  | 'logo'
  | 'keep-logo'
  | 'asset-content'
  | 'get-by-id-paced'
  | 'list-by-user-paced'
  | 'create-paced';

export interface Scenario {
  name: ScenarioName;
  label: string;
  /** `oidc`: the main data set, served with AUTH_MODE=oidc. */
  server: 'main' | 'small' | 'oidc';
  /**
   * A fixed-rate run of another scenario: measured right after it in the
   * same round, at PACED_SHARE of the req/s it just reached.
   */
  pacedOf?: ScenarioName;
  plan(context: {
    idsFile: string;
    users: number;
    /** A valid bearer token for the `oidc` server. */
    token: string;
    /** The `main` server's asset projects (kept-logos.ts). */
    assets?: AssetTargets;
  }): RequestPlan;
}

function required(assets: AssetTargets | undefined): AssetTargets {
  if (!assets) throw new Error('the asset scenarios need the asset projects');
  return assets;
}

/** Latency at a fixed rate is measured at this share of the maximum. */
export const PACED_SHARE = 0.5;

export const SCENARIOS: Scenario[] = [
  {
    name: 'get-by-id',
    label: 'get by id (random ids)',
    server: 'main',
    plan: ({ idsFile }) => ({ kind: 'get-by-id', idsFile }),
  },
  {
    name: 'get-by-id-oidc',
    label: 'get by id, AUTH_MODE=oidc (bearer token)',
    server: 'oidc',
    plan: ({ idsFile, token }) => ({
      kind: 'get-by-id',
      idsFile,
      authorization: `Bearer ${token}`,
    }),
  },
  {
    name: 'list-by-user',
    label: 'list by userId (20 each)',
    server: 'main',
    plan: ({ users }) => ({ kind: 'list-user', users }),
  },
  {
    name: 'list-all',
    label: 'list all (1,000 projects)',
    server: 'small',
    plan: () => ({ kind: 'list-all' }),
  },
  {
    name: 'create',
    label: 'create',
    server: 'main',
    plan: ({ users }) => ({ kind: 'create', users }),
  },
  {
    name: 'create-keyed',
    label: 'create with an Idempotency-Key',
    server: 'main',
    plan: ({ users }) => ({ kind: 'create', users, keys: 'unique' }),
  },
  {
    name: 'create-replay',
    label: 'create replayed (same key and body)',
    server: 'main',
    plan: ({ users }) => ({ kind: 'create', users, keys: 'replay' }),
  },
  {
    name: 'patch',
    label: 'patch (random ids)',
    server: 'main',
    plan: ({ idsFile }) => ({ kind: 'patch', idsFile }),
  },
  {
    name: 'logo',
    label: 'logo, 0 ms upstream',
    server: 'main',
    plan: () => ({ kind: 'logo' }),
  },
  {
    name: 'keep-logo',
    label: 'keep logo (1.5 MB PNG), 0 ms upstream',
    server: 'main',
    plan: ({ assets }) => ({
      kind: 'keep-logo',
      projectIds: required(assets).keeperIds,
    }),
  },
  {
    name: 'asset-content',
    label: 'asset content (1.5 MB PNG)',
    server: 'main',
    plan: ({ assets }) => ({
      kind: 'download',
      path: required(assets).contentPath,
    }),
  },
  {
    name: 'get-by-id-paced',
    label: 'get by id at 50% of its max rate',
    server: 'main',
    pacedOf: 'get-by-id',
    plan: ({ idsFile }) => ({ kind: 'get-by-id', idsFile }),
  },
  {
    name: 'list-by-user-paced',
    label: 'list by userId at 50% of its max rate',
    server: 'main',
    pacedOf: 'list-by-user',
    plan: ({ users }) => ({ kind: 'list-user', users }),
  },
  {
    name: 'create-paced',
    label: 'create at 50% of its max rate',
    server: 'main',
    pacedOf: 'create',
    plan: ({ users }) => ({ kind: 'create', users }),
  },
];
