import { heyApiCalls } from './hey-api';
import { openapiFetchCalls } from './openapi-fetch';
import { orvalCalls } from './orval';
import type { FlowReport, Generator } from './flow-report';
import type { Answer, WorkspaceCalls } from './workspace-calls';

/**
 * The workspace flow a product UI on another origin runs, through one
 * generated client, bundled for the browser: create a project, watch its
 * live changes, run a 3-logo task following its progress from events alone
 * (no project refetch), cancel a task, keep a previewed logo, choose it,
 * make and download the brand kit, search and sort the list. It reports
 * what it saw; the test decides.
 */

interface ChangeEvent {
  type: string;
  data: Record<string, unknown>;
}
interface Task {
  id: string;
  status: string;
  assetIds: string[];
  progress?: { done: number; total: number };
}

const FINISHED = ['SUCCEEDED', 'FAILED', 'CANCELLED'];
const EVENT_TYPES = [
  'project.updated',
  'asset.created',
  'asset.deleted',
  'task.updated',
  'section.updated',
  'agent.updated',
];
const WAIT_MS = 60_000;

function callsOf(
  generator: Generator,
  baseUrl: string,
  token: () => Promise<string | null>,
): WorkspaceCalls {
  if (generator === 'openapi-fetch') return openapiFetchCalls(baseUrl, token);
  if (generator === 'hey-api') return heyApiCalls(baseUrl, token);
  return orvalCalls(token);
}

function expect2xx(step: string, answer: Answer): Answer {
  if (answer.status >= 300) {
    throw new Error(`${step}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer;
}

/** The live changes of one project, through a stream ticket and EventSource. */
class ProjectEvents {
  readonly seen: ChangeEvent[] = [];
  private readonly waiters: (() => void)[] = [];
  private constructor(private readonly source: EventSource) {
    for (const type of EVENT_TYPES) {
      source.addEventListener(type, (event) => {
        this.seen.push(
          JSON.parse((event as MessageEvent).data as string) as ChangeEvent,
        );
        for (const wake of this.waiters.splice(0)) wake();
      });
    }
  }

  static async open(
    calls: WorkspaceCalls,
    projectId: string,
    baseUrl: string,
  ): Promise<ProjectEvents> {
    const ticket = expect2xx(
      'ticket',
      await calls.createStreamTicket(projectId),
    );
    const { url } = ticket.body as { url: string };
    const source = new EventSource(new URL(url, baseUrl));
    await new Promise<void>((resolve, reject) => {
      source.onopen = () => resolve();
      source.onerror = () => reject(new Error('the event stream did not open'));
    });
    return new ProjectEvents(source);
  }

  /** Waits until `done` says the events seen so far are enough. */
  async until(
    what: string,
    done: (seen: ChangeEvent[]) => boolean,
  ): Promise<void> {
    const deadline = Date.now() + WAIT_MS;
    while (!done(this.seen)) {
      if (Date.now() > deadline) throw new Error(`no events for ${what}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 1_000);
      });
    }
  }

  tasks(taskId: string): Task[] {
    return this.seen
      .filter((event) => event.type === 'task.updated')
      .map((event) => event.data.task as Task)
      .filter((task) => task?.id === taskId);
  }

  close(): void {
    this.source.close();
  }
}

async function runTaskByEvents(
  calls: WorkspaceCalls,
  events: ProjectEvents,
  projectId: string,
  body: Parameters<WorkspaceCalls['createTask']>[1],
): Promise<Task> {
  const queued = expect2xx('task', await calls.createTask(projectId, body));
  const { id } = (queued.body as { task: Task }).task;
  await events.until(`task ${id}`, () =>
    events.tasks(id).some((task) => FINISHED.includes(task.status)),
  );
  return events.tasks(id).find((task) => FINISHED.includes(task.status))!;
}

// Long on purpose: one product flow, step after step, read top to bottom.
export async function runFlow(
  generator: Generator,
  baseUrl: string,
  token: () => Promise<string | null>,
  prefix: string,
): Promise<FlowReport> {
  const calls = callsOf(generator, baseUrl, token);
  const logo = {
    companyName: `${prefix} Coffee`,
    style: 'modern' as const,
    colors: ['#0044ff', 'white'],
  };

  // Without a token, the caller says who they are (the contract's userId).
  const owner = (await token()) ? {} : { userId: prefix };
  const created = expect2xx(
    'create',
    await calls.createProject({
      name: `${prefix} Coffee`,
      description: 'Beans',
      ...owner,
    }),
  );
  const project = (
    created.body as {
      project: { id: string; sections: { id: string; type: string }[] };
    }
  ).project;
  const events = await ProjectEvents.open(calls, project.id, baseUrl);
  try {
    const logos = await runTaskByEvents(calls, events, project.id, {
      type: 'logo',
      input: { ...logo, count: 3 },
    });
    const progress = events
      .tasks(logos.id)
      .map((task) => task.progress)
      .filter((step) => step !== undefined)
      .map((step) => `${step.done}/${step.total}`);

    const slow = expect2xx(
      'queue to cancel',
      await calls.createTask(project.id, {
        type: 'logo',
        input: { ...logo, count: 1 },
      }),
    );
    const cancelled = await calls.cancelTask(
      project.id,
      (slow.body as { task: Task }).task.id,
    );

    const preview = expect2xx(
      'preview',
      await calls.generateLogo({ ...logo, projectId: project.id }),
    );
    const { logoUrl, expiresAt } = preview.body as {
      logoUrl: string;
      expiresAt?: string;
    };
    const kept = expect2xx(
      'keep',
      await calls.keepLogo(project.id, { logoUrl }),
    );
    const asset = (kept.body as { asset: { id: string } }).asset;
    const logoSection = project.sections.find((s) => s.type === 'LOGO')!;
    expect2xx(
      'choose',
      await calls.selectSectionAsset(project.id, logoSection.id, asset.id),
    );
    await runTaskByEvents(calls, events, project.id, { type: 'brand-kit' });
    const kit = await calls.getBrandKitZip(project.id);

    const search = await calls.listProjects({
      ...owner,
      q: prefix.toLowerCase(),
      sort: 'name',
      order: 'asc',
      limit: 10,
      view: 'summary',
      includeTotal: 'true',
    });
    const sorted = await calls.listProjects({
      ...owner,
      sort: 'name',
      order: 'desc',
      limit: 50,
      view: 'summary',
    });
    const names = (answer: Answer) =>
      ((answer.body as { projects?: { name: string }[] }).projects ?? []).map(
        (p) => p.name,
      );

    return {
      created: {
        status: created.status,
        location: created.headers.get('Location'),
      },
      progress,
      logoTask: { status: logos.status, assetIds: logos.assetIds },
      assetEvents: events.seen.filter((e) => e.type === 'asset.created').length,
      cancelled: {
        status: cancelled.status,
        taskStatus: (cancelled.body as { task?: Task }).task?.status ?? '',
      },
      preview: { status: preview.status, expiresAt: expiresAt ?? null },
      kept: { status: kept.status, assetId: asset.id },
      brandKit: {
        status: kit.status,
        fileName: kit.fileName,
        bytes: kit.blob?.size ?? 0,
      },
      search: {
        status: search.status,
        names: names(search),
        total: (search.body as { total?: number }).total ?? null,
        thumbnail:
          (search.body as { projects?: { logoThumbnailUrl?: string | null }[] })
            .projects?.[0]?.logoThumbnailUrl ?? null,
      },
      sorted: { status: sorted.status, names: names(sorted) },
    };
  } finally {
    events.close();
  }
}
