import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { projectsConfig } from './projects.config';
import { InputValidationException } from '../failures/input-validation.error';
import type {
  ExpectedVersions,
  HeldRepresentations,
} from '../project-scope/version-conditions';
import type { CallContext } from '../common/call-context';
import { isWellFormedId } from '../common/ids';
import { Database } from '../database/database.service';
import type { IdempotentRequest } from '../idempotency/idempotency-key.decorator';
import { IdempotencyService } from '../idempotency/idempotency.service';
import type { Replayed } from '../idempotency/replayed';
import { AssetBytes } from '../assets/asset-bytes/asset-bytes';
import { AssetUrls } from '../assets/asset-urls';
import { CreateProjectDto } from './dto/create-project.dto';
import {
  ListProjectsQuery,
  PAGE_PARAMETERS,
} from './dto/list-projects-query.dto';
import { parseProjectUpdate } from './dto/update-project.dto';
import { decodeCursor, encodeCursor } from './project-cursor';
import { ProjectAccess } from '../auth/project-access';
import { ProjectCreateRateLimit } from './project-create-rate-limit';
import { buildNewProject } from './project-defaults';
import { ProjectListBody } from './project-list-body';
import { ListSlots } from './list-slots';
import { claimantOf } from '../common/concurrency/fair-gate';
import type { JsonCursor } from '../database/json-cursor';
import { ProjectsRepository, type ProjectPage } from './projects.repository';
import { isDefaultOrder, listOrderOf } from './list-order';
import { thumbnailUrl, withMember } from './list-thumbnails';
import type { ProjectChange } from '../project-scope/project-scope.repository';
import { isUnchanged } from '../project-scope/project-version';
import type { ProjectDocument, ProjectRead } from './project-document';
import {
  toAgentDto,
  toProjectDto,
  toSectionDto,
} from './dto/project-responses.dto';
import { presentProject } from './project-presenter';
import { ProjectChangeRejectedError } from './projects.errors';
import { ProjectNotFoundException } from '../project-scope/project-scope.errors';

/** A page of GET /api/projects: each item's JSON, and where the next starts. */
export interface ProjectPageResult {
  projects: string[];
  nextCursor: string | null;
  /** With `includeTotal=true`: the projects the filters match in all. */
  total?: number;
}

@Injectable()
export class ProjectsService {
  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsRepository,
    private readonly idempotency: IdempotencyService,
    private readonly createRateLimit: ProjectCreateRateLimit,
    private readonly listSlots: ListSlots,
    private readonly assetUrls: AssetUrls,
    private readonly assetBytes: AssetBytes,
    @Inject(projectsConfig.KEY)
    private readonly config: ConfigType<typeof projectsConfig>,
  ) {}

  /**
   * POST /api/projects: the project, its 8 sections and 3 agents, all or nothing.
   * With an Idempotency-Key, the key's record commits in the same
   * transaction, so no crash can leave a project without its key or a key
   * without its project; a key already used gets its first answer again.
   * The client is counted against PROJECT_CREATE_RATE_LIMIT first, unless
   * the request replays a create already made.
   */
  async create(
    input: CreateProjectDto,
    context: CallContext,
    key?: IdempotentRequest<ProjectDocument>,
  ): Promise<ProjectDocument | Replayed> {
    ProjectAccess.of(context).assertOwnerMayBe(
      input.userId,
      'create for another user',
    );
    // A retry of a keyed create that already succeeded is answered without
    // counting it: the docs call such a retry safe, and it creates nothing.
    if (key && this.createRateLimit.enabled) {
      const replayed = await this.idempotency.replay(key);
      if (replayed) return replayed;
    }
    await this.createRateLimit.consume(context.clientKey);
    // A record that expires between the two steps is a fresh start.
    for (;;) {
      const project = buildNewProject(input);
      const document: ProjectDocument = {
        id: project.id,
        version: project.version,
        json: JSON.stringify({
          project: presentProject({
            project: toProjectDto(project),
            sections: project.sections.map(toSectionDto),
            agents: project.agents.map(toAgentDto),
          }),
        }),
      };
      const created = await this.db.transaction(async (transaction) => {
        if (
          key &&
          !(await this.idempotency.recordInTransaction(
            transaction,
            key,
            document,
          ))
        ) {
          return false;
        }
        await this.projects.insertNew(transaction, project);
        return true;
      });
      if (created) return document;
      const replayed = key && (await this.idempotency.replay(key));
      if (replayed) return replayed;
    }
  }

  /**
   * GET /api/projects without a page: every project, or one user's, as
   * the pieces of the JSON body, read from one snapshot as they are sent.
   * A project changed meanwhile is listed as it was when the list started.
   * A client (a user, or an address without auth) runs at most
   * LIST_CLIENT_LIMIT such lists at once; one more waits briefly for one of
   * them to end (list-slots.ts). On PostgreSQL its share of the list
   * connections is bounded too, per identity and per address
   * (snapshot-reader.ts).
   */
  async listAll(
    userId: string | undefined,
    context: CallContext,
  ): Promise<ProjectListBody> {
    const listed = ProjectAccess.of(context).listedOwner(userId);
    const client = claimantOf(context);
    // One of the client's LIST_CLIENT_LIMIT slots, until the cursor closes
    // (the list ended, was cut off, or its client left).
    const release = await this.listSlots.take(client.identity);
    let cursor: JsonCursor;
    try {
      cursor = await this.projects.openList(listed, client);
    } catch (error) {
      release();
      throw error;
    }
    return ProjectListBody.start({
      next: () => cursor.next(),
      close: () => {
        release();
        return cursor.close();
      },
    });
  }

  /**
   * One page of the list (`limit`) in the order asked for, the cursor of
   * the next one (null after the last page), and with `includeTotal` the
   * count of every project the filters match. In the summary view each
   * item ends with its chosen logo's thumbnail URL (or null), made here as
   * every asset URL is: signed for this caller when AUTH_MODE=oidc.
   */
  async listPage(
    query: ListProjectsQuery,
    context: CallContext,
  ): Promise<ProjectPageResult> {
    if (query.limit === undefined) {
      const given = PAGE_PARAMETERS.find((name) => query[name] !== undefined);
      throw new InputValidationException([
        {
          path: ['limit'],
          message: `Required with ${given ?? 'cursor'}`,
          code: 'invalid_type',
        },
      ]);
    }
    const order = listOrderOf(query.sort, query.order);
    const page: ProjectPage = {
      limit: query.limit,
      after:
        query.cursor === undefined
          ? undefined
          : decodeCursor(query.cursor, order),
    };
    // Only what was asked for, so a page without them is read as before.
    if (query.q) page.search = query.q;
    if (!isDefaultOrder(order)) page.order = order;
    if (query.view === 'summary') page.view = 'summary';
    if (query.includeTotal === 'true') page.withTotal = true;
    const userId = ProjectAccess.of(context).listedOwner(query.userId);
    const list = await this.projects.findPage(userId, page);
    const base = context.baseUrlOrRelative();
    const projects = list.logos
      ? list.projects.map((json, index) => {
          const logo = list.logos![index];
          const url =
            logo &&
            thumbnailUrl(
              this.assetUrls.urlOf(
                { id: logo.assetId, projectId: logo.projectId },
                base,
              ),
            );
          return withMember(json, 'logoThumbnailUrl', url ?? null);
        })
      : list.projects;
    return {
      projects,
      nextCursor: list.next ? encodeCursor(list.next, order) : null,
      ...(list.total === undefined ? {} : { total: list.total }),
    };
  }

  /**
   * GET /api/projects/{id}: the project as JSON text with its version; only
   * the version when If-None-Match names the current one.
   */
  async get(
    id: string,
    ifNoneMatch: HeldRepresentations | undefined,
    context: CallContext,
  ): Promise<ProjectRead> {
    if (!isWellFormedId(id)) throw new ProjectNotFoundException();
    const owner = ProjectAccess.of(context).readOwner();
    // Made here, for this caller only: signed when AUTH_MODE=oidc. An
    // answer holding signed URLs is tagged with their expiry too, so a
    // revalidation never keeps URLs that have stopped working.
    const urls = this.assetUrls.partsFor(id, context.baseUrlOrRelative());
    const expiryOf = (hasAssets: boolean) =>
      hasAssets ? urls.expires : undefined;
    if (ifNoneMatch !== undefined) {
      // The version alone is far cheaper to read than the whole document.
      const found = await this.projects.findVersion(id, owner);
      if (found === null) throw new ProjectNotFoundException();
      const urlsExpire = expiryOf(found.hasAssets);
      if (isUnchanged(ifNoneMatch, found.version, urlsExpire)) {
        return { unchanged: true, id, version: found.version, urlsExpire };
      }
    }
    const project = await this.projects.findDetail(id, urls, owner);
    if (project === null) throw new ProjectNotFoundException();
    return {
      id,
      version: project.version,
      json: `{"project":${project.document}}`,
      urlsExpire: expiryOf(project.hasAssets),
    };
  }

  /**
   * PATCH /api/projects/{id}: the body applied as given; updatedAt always set here, and the
   * version moves on (ProjectScope: of two PATCHes naming the same
   * version with If-Match, only one applies).
   */
  async update(
    id: string,
    body: unknown,
    ifMatch: ExpectedVersions | undefined,
    context: CallContext,
  ): Promise<ProjectDocument> {
    const changes = parseProjectUpdate(body, {
      createLengths: this.config.patchLengthLimits,
    });
    const access = ProjectAccess.of(context);
    access.assertOwnerMayBe(changes.userId, 'hand a project to another user');
    const { project, sections, agents } = await this.projects.update(
      changeOf(id, ifMatch, access.changeOwner()),
      changes,
    );
    return {
      id,
      version: project.version,
      json: JSON.stringify({
        project: presentProject({
          project: toProjectDto(project),
          sections,
          agents,
        }),
      }),
    };
  }

  /**
   * DELETE /api/projects/{id}: children go with it (ON DELETE CASCADE),
   * assets' bytes in the database too; bytes kept elsewhere (S3) are
   * deleted after the commit. With If-Match, only while the project is
   * still at a version it names.
   */
  async remove(
    id: string,
    ifMatch: ExpectedVersions | undefined,
    context: CallContext,
  ): Promise<void> {
    const removed = await this.projects.remove(
      changeOf(id, ifMatch, ProjectAccess.of(context).changeOwner()),
    );
    await this.assetBytes.forget(removed.assets);
  }
}

/**
 * The project a PATCH or DELETE may change: the owner's (ProjectAccess),
 * and with If-Match only at a version it names (ProjectScope). Without
 * If-Match, an unknown id is the route's 500 (docs/api.md); with it, RFC
 * 9110's 412, which also covers a project that does not exist (If-Match: *
 * means "exists").
 */
function changeOf(
  id: string,
  ifMatch: ExpectedVersions | undefined,
  owner: string | undefined,
): ProjectChange {
  return {
    projectId: id,
    ...(owner === undefined ? {} : { owner }),
    ...(ifMatch === undefined ? {} : { ifMatch }),
    missing: () =>
      new ProjectChangeRejectedError(
        'unknown project id',
        undefined,
        'project_not_found',
      ),
  };
}
