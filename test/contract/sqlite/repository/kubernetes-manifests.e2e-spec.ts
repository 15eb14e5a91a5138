import { execFileSync } from 'node:child_process';
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ts from 'typescript';
import { parseAllDocuments } from 'yaml';
import { loadConfiguration } from '../../../../config/configuration';
import {
  POD_HEAP_FLAGS,
  podMemoryLimitBytes,
} from '../../../../bench/pod-heap';
import { REPO_ROOT } from '../../../support/server-process';

/**
 * deploy/kubernetes/ validated against the Kubernetes API schemas shipped
 * in the kubernetes-models package (no cluster, no network), and checked
 * for what each object must provide.
 */

const DIR = join(REPO_ROOT, 'deploy', 'kubernetes');

interface Manifest {
  file: string;
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [key: string]: unknown;
}

type Model = new (data: never) => { validate(): void };

/** The kinds the manifests may use, as `<apiVersion>/<kind>`. */
const KINDS = [
  'apps/v1/Deployment',
  'autoscaling/v2/HorizontalPodAutoscaler',
  'batch/v1/Job',
  'networking.k8s.io/v1/Ingress',
  'networking.k8s.io/v1/NetworkPolicy',
  'policy/v1/PodDisruptionBudget',
  'v1/ConfigMap',
  'v1/Service',
];

/**
 * The schema-checked model of each kind. kubernetes-models publishes ES
 * modules with an "import" export only, so they are imported, not required.
 */
const MODELS: Record<string, Model> = {};
beforeAll(async () => {
  for (const kind of KINDS) {
    const module = (await import(`kubernetes-models/${kind}`)) as Record<
      string,
      Model
    >;
    MODELS[kind] = module[kind.split('/').pop()!];
  }
});

function validate(manifest: object & { apiVersion?: string; kind?: string }) {
  const Model = MODELS[`${manifest.apiVersion}/${manifest.kind}`];
  if (!Model)
    throw new Error(`No schema for ${manifest.apiVersion} ${manifest.kind}`);
  new Model(manifest as never).validate();
}

function loadManifests(): Manifest[] {
  return readdirSync(DIR)
    .filter((file) => /\.ya?ml$/.test(file))
    .flatMap((file) =>
      parseAllDocuments(readFileSync(join(DIR, file), 'utf8')).map((doc) => {
        if (doc.errors.length > 0) throw doc.errors[0];
        return { ...(doc.toJS() as Omit<Manifest, 'file'>), file } as Manifest;
      }),
    );
}

const manifests = loadManifests();

/** Whether a matchLabels selector selects pods with these labels. */
function selects(
  selector: Record<string, string>,
  labels: Record<string, string>,
): boolean {
  const entries = Object.entries(selector);
  return entries.length > 0 && entries.every(([k, v]) => labels[k] === v);
}

/** A Kubernetes quantity (plain, Ki, Mi, Gi) in bytes. */
function quantityBytes(quantity: string): number {
  const match = /^(\d+)(Ki|Mi|Gi)?$/.exec(quantity);
  if (!match) throw new Error(`Unreadable quantity "${quantity}"`);
  const unit = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30 }[match[2] ?? ''] ?? 1;
  return Number(match[1]) * unit;
}

/**
 * The migration Job's name for a release: its image tag, lower-cased, every
 * other character a dash (an object name allows [a-z0-9-] only).
 */
function migrationJobName(tag: string): string {
  const suffix = tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `workspace-api-migrate-${suffix}`.slice(0, 63).replace(/-+$/, '');
}
const one = (kind: string, name?: string) => {
  const found = manifests.filter(
    (m) =>
      m.kind === kind &&
      (name === undefined ||
        (m as unknown as { metadata: { name: string } }).metadata.name ===
          name),
  );
  expect(found).toHaveLength(1);
  return found[0] as never;
};

interface Container {
  name: string;
  image: string;
  command?: string[];
  env?: {
    name: string;
    value?: string;
    valueFrom?: {
      secretKeyRef?: { name: string; key: string; optional?: boolean };
    };
  }[];
  envFrom?: { configMapRef?: { name: string } }[];
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
  resources?: {
    requests?: Record<string, string>;
    limits?: Record<string, string>;
  };
  lifecycle?: { preStop?: { sleep?: { seconds: number }; exec?: object } };
  volumeMounts?: { name: string; mountPath: string }[];
  securityContext?: {
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    capabilities?: { drop?: string[] };
  };
  ports?: { name?: string; containerPort: number }[];
}
interface PodSpec {
  terminationGracePeriodSeconds?: number;
  topologySpreadConstraints?: {
    maxSkew: number;
    topologyKey: string;
    whenUnsatisfiable: string;
    labelSelector?: { matchLabels?: Record<string, string> };
    matchLabelKeys?: string[];
  }[];
  volumes?: { name: string; emptyDir?: { sizeLimit?: string } }[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  containers: Container[];
}
interface Workload {
  metadata: { name: string };
  spec: {
    selector?: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
  };
}

describe('Kubernetes manifests (deploy/kubernetes)', () => {
  it("has the API and worker Deployments, a migration Job, the API's and the sites' Services, the sites' Ingress, a ConfigMap, a HorizontalPodAutoscaler, two PodDisruptionBudgets and three NetworkPolicies", () => {
    expect(manifests.map((m) => m.kind).sort()).toEqual(
      [
        'ConfigMap',
        'Deployment',
        'Deployment',
        'HorizontalPodAutoscaler',
        'Ingress',
        'Job',
        'NetworkPolicy',
        'NetworkPolicy',
        'NetworkPolicy',
        'PodDisruptionBudget',
        'PodDisruptionBudget',
        'Service',
        'Service',
      ].sort(),
    );
  });

  it.each(manifests.map((m) => [`${m.file} (${m.kind})`, m] as const))(
    '%s validates against the Kubernetes schema',
    (_name, manifest) => {
      const object: Partial<Manifest> = { ...manifest };
      delete object.file;
      expect(() => validate(object)).not.toThrow();
    },
  );

  it('the schema check catches a broken manifest', () => {
    const deployment = structuredClone(
      one('Deployment', 'workspace-api'),
    ) as Workload & {
      file?: string;
    };
    delete deployment.file;
    (deployment.spec as { replicas?: unknown }).replicas = 'two';
    expect(() => validate(deployment)).toThrow(/replicas/);
  });

  describe('fields the Kubernetes API does not know', () => {
    // kubernetes-models' validate() lets an unknown key through, and the API
    // server would drop it with only a warning: a misspelled `readinesProbe`
    // would leave the pod without a probe. The package's TypeScript
    // interfaces do not: an object literal may not carry a key its type
    // lacks. So each manifest is compiled as a literal of its kind's type.
    const compilerOptions: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2023,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: [],
      skipLibCheck: true,
    };

    function typeErrors(objects: Manifest[]): string[] {
      const dir = mkdtempSync(join(tmpdir(), 'kubernetes-types-'));
      try {
        const file = join(dir, 'manifests.ts');
        const source = objects.map((manifest, i) => {
          const object: Partial<Manifest> = { ...manifest };
          delete object.file;
          // The package's own file (its exports map offers "import" only).
          const module = join(
            REPO_ROOT,
            'node_modules',
            'kubernetes-models',
            manifest.apiVersion,
            `${manifest.kind}.js`,
          );
          return (
            `import type { I${manifest.kind} as T${i} } from ${JSON.stringify(module)};\n` +
            `export const m${i}: T${i} = ${JSON.stringify(object, null, 2)};\n`
          );
        });
        writeFileSync(file, source.join(''));
        return ts
          .getPreEmitDiagnostics(ts.createProgram([file], compilerOptions))
          .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }

    it('every manifest uses only fields its kind has', () => {
      expect(typeErrors(manifests)).toEqual([]);
    }, 60_000);

    it('the field check catches a misspelled key', () => {
      const deployment = structuredClone(
        one('Deployment', 'workspace-api'),
      ) as Workload & Manifest;
      const container = deployment.spec.template.spec.containers[0] as object;
      Object.assign(container, { readinesProbe: { httpGet: { path: '/' } } });
      expect(typeErrors([deployment]).join('\n')).toContain('readinesProbe');
    }, 60_000);
  });

  describe('Deployment', () => {
    const deployment = () => one('Deployment', 'workspace-api') as Workload;
    const container = () => deployment().spec.template.spec.containers[0];
    const env = (name: string) =>
      container().env?.find((entry) => entry.name === name);

    it('probes /health/live for liveness and /health/ready for readiness', () => {
      expect(container().livenessProbe?.httpGet?.path).toBe('/health/live');
      expect(container().readinessProbe?.httpGet?.path).toBe('/health/ready');
    });

    it('gives the pod more time to stop than preStop and SHUTDOWN_TIMEOUT_MS together', () => {
      const configMap = one('ConfigMap') as { data: Record<string, string> };
      const shutdownSeconds = Number(configMap.data.SHUTDOWN_TIMEOUT_MS) / 1000;
      const preStopSeconds = container().lifecycle?.preStop?.sleep?.seconds;
      expect(preStopSeconds).toBeGreaterThan(0);
      expect(
        deployment().spec.template.spec.terminationGracePeriodSeconds,
      ).toBeGreaterThan(shutdownSeconds + preStopSeconds!);
    });

    it("waits before the drain with the kubelet's sleep, not a program of the image", () => {
      expect(container().lifecycle?.preStop).toEqual({
        sleep: { seconds: expect.any(Number) },
      });
    });

    it('reads IMAGE_API_KEY, DATABASE_URL and ASSET_URL_SIGNING_KEY from a Secret, never from a literal', () => {
      for (const name of [
        'IMAGE_API_KEY',
        'DATABASE_URL',
        'ASSET_URL_SIGNING_KEY',
      ]) {
        expect(env(name)?.value).toBeUndefined();
        expect(env(name)?.valueFrom?.secretKeyRef).toEqual({
          name: 'workspace-api',
          key: name,
        });
      }
    });

    it('takes S3 credentials from the Secret only when it holds them (a pod role otherwise)', () => {
      for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']) {
        expect(env(name)?.value).toBeUndefined();
        expect(env(name)?.valueFrom?.secretKeyRef).toEqual({
          name: 'workspace-api',
          key: name,
          optional: true,
        });
      }
    });

    it("README's kubectl create secret gives every key the Deployment requires", () => {
      const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
      const command =
        /kubectl create secret generic workspace-api(?:[^\n]*\\\n)*[^\n]*/.exec(
          readme,
        );
      const given = [
        ...(command?.[0] ?? '').matchAll(/--from-literal=([A-Z0-9_]+)=/g),
      ].map((m) => m[1]);
      const required = (container().env ?? [])
        .map((entry) => entry.valueFrom?.secretKeyRef)
        .filter((ref) => ref !== undefined && !ref.optional)
        .map((ref) => ref!.key);
      expect(required).toContain('ASSET_URL_SIGNING_KEY');
      expect(given).toEqual(expect.arrayContaining(required));
    });

    it('runs with MIGRATIONS_RUN=false (the Job migrates)', () => {
      expect(env('MIGRATIONS_RUN')?.value).toBe('false');
    });

    it('takes the other settings from the ConfigMap', () => {
      expect(container().envFrom).toEqual([
        { configMapRef: { name: 'workspace-api' } },
      ]);
    });

    it('sets resource requests and limits', () => {
      expect(container().resources?.requests).toEqual(
        expect.objectContaining({
          cpu: expect.any(String),
          memory: expect.any(String),
        }),
      );
      expect(container().resources?.limits).toEqual(
        expect.objectContaining({ memory: expect.any(String) }),
      );
    });

    it('runs as a non-root user without privileges', () => {
      expect(deployment().spec.template.spec.securityContext).toMatchObject({
        runAsNonRoot: true,
        runAsUser: 1000,
      });
      expect(container().securityContext).toEqual({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      });
    });

    it('is selected by the Service and the PodDisruptionBudget, and scaled by the HorizontalPodAutoscaler', () => {
      const labels = deployment().spec.template.metadata.labels;
      const service = one('Service', 'workspace-api') as {
        spec: { selector: object };
      };
      const pdb = one('PodDisruptionBudget', 'workspace-api') as {
        spec: { selector: { matchLabels: object } };
      };
      const hpa = one('HorizontalPodAutoscaler') as {
        spec: { scaleTargetRef: { kind: string; name: string } };
      };
      expect(labels).toMatchObject(service.spec.selector);
      expect(labels).toMatchObject(pdb.spec.selector.matchLabels);
      expect(hpa.spec.scaleTargetRef).toMatchObject({
        kind: 'Deployment',
        name: deployment().metadata.name,
      });
    });
  });

  describe('published sites', () => {
    const api = () => one('Deployment', 'workspace-api') as Workload;
    const sitesPort = () =>
      api().spec.template.spec.containers[0].ports!.find(
        (port) => port.name === 'sites',
      );

    it("the API's pods expose the sites listener on SITES_PORT, named sites", () => {
      const data = (one('ConfigMap') as { data: Record<string, string> }).data;
      expect(sitesPort()?.containerPort).toBe(Number(data.SITES_PORT));
    });

    it('a Service of their own selects the API pods, and an Ingress on its own host (SITES_BASE_URL) sends to it', () => {
      const service = one('Service', 'workspace-api-sites') as {
        spec: {
          selector: object;
          ports: { port: number; targetPort: string }[];
        };
      };
      expect(api().spec.template.metadata.labels).toMatchObject(
        service.spec.selector,
      );
      expect(service.spec.ports).toEqual([
        { name: 'sites', port: 80, targetPort: 'sites' },
      ]);
      const ingress = one('Ingress', 'workspace-api-sites') as {
        spec: {
          rules: {
            host: string;
            http: {
              paths: {
                backend: { service: { name: string; port: { name: string } } };
              }[];
            };
          }[];
        };
      };
      const [rule] = ingress.spec.rules;
      const data = (one('ConfigMap') as { data: Record<string, string> }).data;
      expect(new URL(data.SITES_BASE_URL).host).toBe(rule.host);
      expect(new URL(data.PUBLIC_BASE_URL).host).not.toBe(rule.host);
      expect(rule.http.paths[0].backend.service).toEqual({
        name: 'workspace-api-sites',
        port: { name: 'sites' },
      });
    });
  });

  describe('worker Deployment', () => {
    const worker = () => one('Deployment', 'workspace-api-worker') as Workload;
    const api = () => one('Deployment', 'workspace-api') as Workload;
    const envOf = (workload: Workload, name: string) =>
      workload.spec.template.spec.containers[0].env?.find(
        (entry) => entry.name === name,
      );

    it('runs the same image with PROCESS_ROLE=worker, while the API Deployment only serves (PROCESS_ROLE=api)', () => {
      const [container] = worker().spec.template.spec.containers;
      expect(container.image).toBe(
        api().spec.template.spec.containers[0].image,
      );
      expect(envOf(worker(), 'PROCESS_ROLE')?.value).toBe('worker');
      expect(envOf(api(), 'PROCESS_ROLE')?.value).toBe('api');
    });

    it('is not selected by the Services (it answers no API request, serves no site)', () => {
      for (const name of ['workspace-api', 'workspace-api-sites']) {
        const service = one('Service', name) as { spec: { selector: object } };
        expect(worker().spec.template.metadata.labels).not.toMatchObject(
          service.spec.selector,
        );
      }
    });

    it('probes /health/live and /health/ready and reads the same secrets', () => {
      const [container] = worker().spec.template.spec.containers;
      expect(container.livenessProbe?.httpGet?.path).toBe('/health/live');
      for (const name of ['DATABASE_URL', 'IMAGE_API_KEY', 'TEXT_API_KEY']) {
        expect(envOf(worker(), name)?.valueFrom?.secretKeyRef?.key).toBe(name);
      }
    });
  });

  describe('migration Job', () => {
    it('runs the migration command with DATABASE_URL from the Secret, on the same image', () => {
      const job = one('Job') as Workload;
      const deployment = one('Deployment', 'workspace-api') as Workload;
      const [container] = job.spec.template.spec.containers;
      expect(container.command).toEqual(['node', 'dist/config/migrate.js']);
      expect(container.image).toBe(
        deployment.spec.template.spec.containers[0].image,
      );
      expect(
        container.env?.find((e) => e.name === 'DATABASE_URL')?.valueFrom
          ?.secretKeyRef,
      ).toEqual({ name: 'workspace-api', key: 'DATABASE_URL' });
      expect(job.spec.template.spec.securityContext?.runAsNonRoot).toBe(true);
    });
  });

  describe('ConfigMap', () => {
    const data = () =>
      (one('ConfigMap') as { data: Record<string, string> }).data;

    it('holds only variables the README documents', () => {
      const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
      for (const name of Object.keys(data())) {
        expect(readme).toContain(`| \`${name}\` |`);
      }
    });

    it('holds no secret', () => {
      for (const name of [
        'IMAGE_API_KEY',
        'DATABASE_URL',
        'REDIS_URL',
        'ASSET_URL_SIGNING_KEY',
        'AWS_ACCESS_KEY_ID',
        'AWS_SECRET_ACCESS_KEY',
      ]) {
        expect(data()).not.toHaveProperty(name);
      }
    });

    it('passes the start-up validation of the service (listening on 0.0.0.0)', () => {
      // What the Deployment adds from the Secret.
      const config = loadConfiguration({
        ...data(),
        DATABASE_URL: 'postgres://app@db:5432/workspace',
        ASSET_URL_SIGNING_KEY: 'a-test-signing-key-of-at-least-32-chars',
        NODE_ENV: 'production',
      });
      expect(config.process.host).toBe('0.0.0.0');
      expect(config.process.shutdownTimeoutMs).toBe(25000);
      // Per proven user: the manifests run with AUTH_MODE=oidc.
      expect(config.projects.createRateLimit).toEqual({
        limit: 120,
        windowSeconds: 60,
      });
      expect(config.assets.store).toMatchObject({
        type: 's3',
        bucket: expect.any(String),
      });
    });

    it('does not start without ASSET_URL_SIGNING_KEY, which only the Secret holds', () => {
      expect(() =>
        loadConfiguration({
          ...data(),
          DATABASE_URL: 'postgres://app@db:5432/workspace',
          NODE_ENV: 'production',
        }),
      ).toThrow(/ASSET_URL_SIGNING_KEY/);
    });
  });

  describe("the pods' shape (API and worker Deployments)", () => {
    const workloads = () =>
      ['workspace-api', 'workspace-api-worker'].map(
        (name) => one('Deployment', name) as Workload,
      );
    const nodeOptions = (workload: Workload) =>
      workload.spec.template.spec.containers[0].env?.find(
        (entry) => entry.name === 'NODE_OPTIONS',
      )?.value;
    const flag = (options: string, name: string) =>
      Number(new RegExp(`--${name}=(\\d+)`).exec(options)?.[1]);

    it('both set the heap (old and young generation) in NODE_OPTIONS, the same flags', () => {
      const [api, worker] = workloads().map(nodeOptions);
      expect(api).toMatch(/--max-old-space-size=\d+/);
      expect(api).toMatch(/--max-semi-space-size=\d+/);
      expect(worker).toBe(api);
    });

    it('the bench and the heap-sensitive tests run with exactly those flags', () => {
      expect(POD_HEAP_FLAGS.join(' ')).toBe(nodeOptions(workloads()[0]));
      expect(podMemoryLimitBytes()).toBe(
        quantityBytes(
          workloads()[0].spec.template.spec.containers[0].resources!.limits!
            .memory,
        ),
      );
    });

    it('Node.js accepts the flags in NODE_OPTIONS and sizes its heap by them', () => {
      const options = nodeOptions(workloads()[0])!;
      const limit = execFileSync(
        process.execPath,
        [
          '-e',
          "process.stdout.write(String(require('v8').getHeapStatistics().heap_size_limit))",
        ],
        { env: { PATH: process.env.PATH, NODE_OPTIONS: options } },
      );
      // V8's young generation is three semi-spaces (two plus the one
      // being promoted from).
      const expected =
        (flag(options, 'max-old-space-size') +
          3 * flag(options, 'max-semi-space-size')) *
        2 ** 20;
      expect(Number(limit)).toBe(expected);
    });

    it('the heap takes at most half the memory limit (the rest: buffers, sharp, native heap)', () => {
      for (const workload of workloads()) {
        const options = nodeOptions(workload)!;
        const heapBytes =
          (flag(options, 'max-old-space-size') +
            3 * flag(options, 'max-semi-space-size')) *
          2 ** 20;
        const limit = quantityBytes(
          workload.spec.template.spec.containers[0].resources!.limits!.memory,
        );
        expect(heapBytes).toBeLessThanOrEqual(limit / 2);
      }
    });

    it('request memory equal to the limit', () => {
      for (const workload of workloads()) {
        const { requests, limits } =
          workload.spec.template.spec.containers[0].resources!;
        expect(limits!.memory).toEqual(expect.any(String));
        expect(requests!.memory).toBe(limits!.memory);
      }
    });

    it('bound ephemeral storage, and /tmp is an emptyDir with a sizeLimit within it', () => {
      for (const workload of workloads()) {
        const [container] = workload.spec.template.spec.containers;
        const { requests, limits } = container.resources!;
        expect(requests!['ephemeral-storage']).toEqual(expect.any(String));
        expect(limits!['ephemeral-storage']).toEqual(expect.any(String));
        const mount = container.volumeMounts?.find(
          (entry) => entry.mountPath === '/tmp',
        );
        const volume = workload.spec.template.spec.volumes?.find(
          (entry) => entry.name === mount?.name,
        );
        const sizeLimit = volume?.emptyDir?.sizeLimit;
        expect(sizeLimit).toEqual(expect.any(String));
        expect(quantityBytes(sizeLimit!)).toBeLessThan(
          quantityBytes(limits!['ephemeral-storage']),
        );
      }
    });

    it('spread over nodes (required) and zones (preferred), each over its own pods', () => {
      for (const workload of workloads()) {
        const { spec, metadata } = workload.spec.template;
        const constraints = spec.topologySpreadConstraints ?? [];
        const byKey = Object.fromEntries(
          constraints.map((c) => [c.topologyKey, c]),
        );
        expect(byKey['kubernetes.io/hostname']?.whenUnsatisfiable).toBe(
          'DoNotSchedule',
        );
        expect(byKey['topology.kubernetes.io/zone']?.whenUnsatisfiable).toBe(
          'ScheduleAnyway',
        );
        for (const constraint of constraints) {
          expect(constraint.maxSkew).toBe(1);
          expect(metadata.labels).toMatchObject(
            constraint.labelSelector!.matchLabels!,
          );
          expect(constraint.matchLabelKeys).toEqual(['pod-template-hash']);
        }
      }
    });
  });

  describe('migration Job, one per release', () => {
    const job = () => one('Job') as Workload;

    /** Whether the Job's name carries the tag of the image it runs. */
    function namedForItsImage(workload: Workload): boolean {
      const tag = workload.spec.template.spec.containers[0].image
        .split(':')
        .pop()!;
      return workload.metadata.name === migrationJobName(tag);
    }

    it('is named after the release it migrates to (its image tag), so each release applies a new Job', () => {
      expect(namedForItsImage(job())).toBe(true);
      expect(job().metadata.name).toBe('workspace-api-migrate-1-0-0');
    });

    it('two successive releases get two Jobs, each a valid object name', () => {
      const names = ['1.0.0', '1.0.1', '1.1.0-rc.1', '2.0.0_Build7'].map(
        migrationJobName,
      );
      expect(new Set(names).size).toBe(names.length);
      for (const name of names) {
        expect(name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
        expect(name.length).toBeLessThanOrEqual(63);
      }
    });

    it('the check catches a release that bumps the image but not the name', () => {
      const next = structuredClone(job());
      next.spec.template.spec.containers[0].image =
        'registry.example.com/workspace-api:1.0.1';
      expect(namedForItsImage(next)).toBe(false);
      next.metadata.name = migrationJobName('1.0.1');
      expect(namedForItsImage(next)).toBe(true);
    });

    it('requests the memory it may use', () => {
      const { requests, limits } =
        job().spec.template.spec.containers[0].resources!;
      expect(requests!.memory).toBe(limits!.memory);
    });
  });

  describe('PodDisruptionBudgets', () => {
    const budgets = () =>
      manifests.filter((m) => m.kind === 'PodDisruptionBudget') as unknown as {
        metadata: { name: string };
        spec: {
          selector: { matchLabels: Record<string, string> };
          unhealthyPodEvictionPolicy?: string;
        };
      }[];

    it('let a drain evict a pod that is not ready, whatever the budget', () => {
      for (const budget of budgets()) {
        expect(budget.spec.unhealthyPodEvictionPolicy).toBe('AlwaysAllow');
      }
    });

    it('one for each Deployment', () => {
      for (const name of ['workspace-api', 'workspace-api-worker']) {
        const labels = (one('Deployment', name) as Workload).spec.template
          .metadata.labels;
        expect(
          budgets().filter((budget) =>
            selects(budget.spec.selector.matchLabels, labels),
          ),
        ).toHaveLength(1);
      }
    });
  });

  describe('NetworkPolicies', () => {
    interface Port {
      protocol?: string;
      port?: number | string;
    }
    interface Policy {
      metadata: { name: string };
      spec: {
        podSelector: { matchLabels?: Record<string, string> };
        policyTypes?: string[];
        ingress?: { from?: object[]; ports?: Port[] }[];
        egress?: {
          to?: { ipBlock?: { cidr: string; except?: string[] } }[];
          ports?: Port[];
        }[];
      };
    }
    const policies = () =>
      manifests.filter(
        (m) => m.kind === 'NetworkPolicy',
      ) as unknown as Policy[];
    const policyFor = (labels: Record<string, string>) => {
      const found = policies().filter((policy) =>
        selects(policy.spec.podSelector.matchLabels ?? {}, labels),
      );
      expect(found).toHaveLength(1);
      return found[0];
    };
    const podsOf = (kind: string, name?: string) =>
      (one(kind, name) as Workload).spec.template.metadata.labels;
    const egressPorts = (policy: Policy) =>
      (policy.spec.egress ?? []).flatMap((rule) =>
        (rule.ports ?? []).map((p) => `${p.protocol ?? 'TCP'}/${p.port}`),
      );
    const ingressPorts = (policy: Policy) =>
      (policy.spec.ingress ?? []).flatMap((rule) =>
        (rule.ports ?? []).map((p) => `${p.protocol ?? 'TCP'}/${p.port}`),
      );

    it('select every pod of the service, each by one policy that restricts both directions', () => {
      for (const labels of [
        podsOf('Deployment', 'workspace-api'),
        podsOf('Deployment', 'workspace-api-worker'),
        podsOf('Job'),
      ]) {
        expect(policyFor(labels).spec.policyTypes?.sort()).toEqual([
          'Egress',
          'Ingress',
        ]);
      }
    });

    it('let requests reach the API and the sites listener on their container ports, from named namespaces only', () => {
      const api = one('Deployment', 'workspace-api') as Workload;
      const ports = api.spec.template.spec.containers[0].ports!.map(
        (p) => `TCP/${p.containerPort}`,
      );
      const policy = policyFor(podsOf('Deployment', 'workspace-api'));
      expect(ingressPorts(policy).sort()).toEqual(ports.sort());
      for (const rule of policy.spec.ingress!) {
        expect(rule.from?.length).toBeGreaterThan(0);
      }
    });

    it('let the API and the workers reach DNS, PostgreSQL, Redis and HTTPS, and nothing else', () => {
      for (const name of ['workspace-api', 'workspace-api-worker']) {
        expect(
          egressPorts(policyFor(podsOf('Deployment', name))).sort(),
        ).toEqual(
          ['UDP/53', 'TCP/53', 'TCP/5432', 'TCP/6379', 'TCP/443'].sort(),
        );
      }
    });

    it('keep the cloud instance metadata address out of HTTPS', () => {
      const policy = policyFor(podsOf('Deployment', 'workspace-api'));
      const https = policy.spec.egress!.find((rule) =>
        egressPorts({
          ...policy,
          spec: { ...policy.spec, egress: [rule] },
        }).includes('TCP/443'),
      );
      const v4 = https?.to?.find((peer) => peer.ipBlock?.cidr === '0.0.0.0/0');
      expect(v4?.ipBlock?.except).toContain('169.254.169.254/32');
    });

    it('let the migration Job reach DNS and PostgreSQL only, and nothing reach it', () => {
      const policy = policyFor(podsOf('Job'));
      expect(egressPorts(policy).sort()).toEqual(
        ['UDP/53', 'TCP/53', 'TCP/5432'].sort(),
      );
      expect(policy.spec.ingress ?? []).toEqual([]);
    });

    it('the selector check tells apart pods a policy does not select', () => {
      expect(
        selects(
          { 'app.kubernetes.io/name': 'workspace-api' },
          {
            'app.kubernetes.io/name': 'workspace-api-worker',
          },
        ),
      ).toBe(false);
    });
  });
});
