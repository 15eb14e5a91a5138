import type { RequestPlan } from './load-protocol';

/**
 * The timed scenarios of issue 6, in the order each round runs them.
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
  | 'logo';

export interface Scenario {
  name: ScenarioName;
  label: string;
  /** `oidc`: the main data set, served with AUTH_MODE=oidc. */
  server: 'main' | 'small' | 'oidc';
  plan(context: {
    idsFile: string;
    users: number;
    /** A valid bearer token for the `oidc` server. */
    token: string;
  }): RequestPlan;
}

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
];
