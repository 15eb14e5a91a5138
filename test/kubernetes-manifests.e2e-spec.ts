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
import { loadConfiguration } from '../config/configuration';
import { REPO_ROOT } from './support/server-process';

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
  resources?: { requests?: object; limits?: object };
  securityContext?: {
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    capabilities?: { drop?: string[] };
  };
  ports?: { name?: string; containerPort: number }[];
}
interface PodSpec {
  terminationGracePeriodSeconds?: number;
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
  it('has the API and worker Deployments, a migration Job, a Service, a ConfigMap, a HorizontalPodAutoscaler and a PodDisruptionBudget', () => {
    expect(manifests.map((m) => m.kind).sort()).toEqual(
      [
        'ConfigMap',
        'Deployment',
        'Deployment',
        'HorizontalPodAutoscaler',
        'Job',
        'PodDisruptionBudget',
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

    it('gives the pod more time to stop than SHUTDOWN_TIMEOUT_MS', () => {
      const configMap = one('ConfigMap') as { data: Record<string, string> };
      const shutdownSeconds = Number(configMap.data.SHUTDOWN_TIMEOUT_MS) / 1000;
      expect(
        deployment().spec.template.spec.terminationGracePeriodSeconds,
      ).toBeGreaterThan(shutdownSeconds + 5);
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
      const service = one('Service') as { spec: { selector: object } };
      const pdb = one('PodDisruptionBudget') as {
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

    it('is not selected by the Service (it answers no API request)', () => {
      const service = one('Service') as { spec: { selector: object } };
      expect(worker().spec.template.metadata.labels).not.toMatchObject(
        service.spec.selector,
      );
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
});
