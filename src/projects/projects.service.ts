import { Injectable } from '@nestjs/common';
import { InputValidationException } from '../common/errors/input-validation.exception';
import { isWellFormedId } from '../common/ids';
import { Database } from '../database/database.service';
import { SnapshotReader } from '../database/snapshot-reader';
import { sqlFor } from '../database/sql';
import { CreateProjectDto } from './dto/create-project.dto';
import { ListProjectsQuery } from './dto/list-projects.query';
import { parseProjectUpdate } from './dto/update-project.dto';
import { Project } from './entities';
import { decodeCursor, encodeCursor } from './project-cursor';
import { ProjectCreateRateLimit } from './project-create-rate-limit';
import { buildNewProject } from './project-defaults';
import { ProjectListBody } from './project-list-body';
import {
  allProjectsStatement,
  findProjectDetail,
  findProjectPage,
  findSectionsAndAgents,
} from './project-queries';
import { agentView, projectView, sectionView } from './project.views';
import { presentProject } from './project.presenter';
import {
  ProjectChangeRejectedError,
  ProjectNotFoundException,
} from './projects.errors';

@Injectable()
export class ProjectsService {
  constructor(
    private readonly db: Database,
    private readonly snapshots: SnapshotReader,
    private readonly createRateLimit: ProjectCreateRateLimit,
  ) {}

  /**
   * SPEC 4.1: the project, its 8 sections and 3 agents, all or nothing.
   * `client` is counted against PROJECT_CREATE_RATE_LIMIT first.
   */
  async create(input: CreateProjectDto, client: string) {
    await this.createRateLimit.consume(client);
    const project = buildNewProject(input);
    // One save: the cascade inserts the sections and agents in the same
    // transaction as the project.
    await this.db.write((manager) => manager.save(project, { reload: false }));
    return presentProject({
      project: projectView(project),
      sections: project.sections.map(sectionView),
      agents: project.agents.map(agentView),
    });
  }

  /**
   * SPEC 4.2 as it is written (no page): every project, or one user's, as
   * the pieces of the JSON body, read from one snapshot as they are sent.
   * A project changed meanwhile is listed as it was when the list started.
   */
  async listAll(userId: string | undefined): Promise<ProjectListBody> {
    const { text, params } = allProjectsStatement(this.snapshots.json, userId);
    return ProjectListBody.start(await this.snapshots.openJson(text, params));
  }

  /**
   * One page of SPEC 4.2's list (`limit`, an addition) and the cursor of
   * the next one (null after the last page).
   */
  async listPage(query: ListProjectsQuery) {
    if (query.limit === undefined) {
      throw new InputValidationException([
        {
          path: ['limit'],
          message: 'Required with cursor',
          code: 'invalid_type',
        },
      ]);
    }
    const page = {
      limit: query.limit,
      after:
        query.cursor === undefined ? undefined : decodeCursor(query.cursor),
    };
    const { projects, next } = await this.db.read((manager) =>
      findProjectPage(sqlFor(manager), query.userId, page),
    );
    return { projects, nextCursor: next ? encodeCursor(next) : null };
  }

  /** SPEC 4.3, the project as JSON text. */
  async get(id: string): Promise<string> {
    if (!isWellFormedId(id)) throw new ProjectNotFoundException();
    const project = await this.db.read((manager) =>
      findProjectDetail(sqlFor(manager), id),
    );
    if (project === null) throw new ProjectNotFoundException();
    return project;
  }

  /** SPEC 4.4: the body applied as given; updatedAt always set here. */
  async update(id: string, body: unknown) {
    const changes = parseProjectUpdate(body);
    if (!isWellFormedId(id)) {
      throw new ProjectChangeRejectedError('unknown project id');
    }
    return this.db.write(async (manager) => {
      const project = await manager.findOneBy(Project, { id });
      if (!project) throw new ProjectChangeRejectedError('unknown project id');
      Object.assign(project, changes, { updatedAt: new Date() });
      await manager.update(
        Project,
        { id },
        { ...changes, updatedAt: project.updatedAt },
      );
      return presentProject({
        project: projectView(project),
        ...(await findSectionsAndAgents(sqlFor(manager), id)),
      });
    });
  }

  /** SPEC 4.5: children go with it (ON DELETE CASCADE). */
  async remove(id: string): Promise<void> {
    if (!isWellFormedId(id)) {
      throw new ProjectChangeRejectedError('unknown project id');
    }
    const result = await this.db.write((manager) =>
      manager.delete(Project, { id }),
    );
    if (!result.affected) {
      throw new ProjectChangeRejectedError('unknown project id');
    }
  }
}
