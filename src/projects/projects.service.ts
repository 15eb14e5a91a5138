import { Injectable } from '@nestjs/common';
import { InputValidationException } from '../common/errors/input-validation.exception';
import { isWellFormedId } from '../common/ids';
import { Database } from '../database/database.service';
import { sqlFor } from '../database/sql';
import { CreateProjectDto } from './dto/create-project.dto';
import { ListProjectsQuery } from './dto/list-projects.query';
import { parseProjectUpdate } from './dto/update-project.dto';
import { Project } from './entities';
import { decodeCursor, encodeCursor } from './project-cursor';
import { buildNewProject } from './project-defaults';
import {
  findProjectDetail,
  findProjectList,
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
  constructor(private readonly db: Database) {}

  /** SPEC 4.1: the project, its 8 sections and 3 agents, all or nothing. */
  async create(input: CreateProjectDto) {
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
   * SPEC 4.2, each project as JSON text. With `limit` (an addition), one page
   * and the cursor of the next one (null after the last page); without it,
   * every project.
   */
  async list(query: ListProjectsQuery) {
    if (query.cursor !== undefined && query.limit === undefined) {
      throw new InputValidationException([
        {
          path: ['limit'],
          message: 'Required with cursor',
          code: 'invalid_type',
        },
      ]);
    }
    const page =
      query.limit === undefined
        ? undefined
        : {
            limit: query.limit,
            after:
              query.cursor === undefined
                ? undefined
                : decodeCursor(query.cursor),
          };
    const { projects, next } = await this.db.read((manager) =>
      findProjectList(sqlFor(manager), { userId: query.userId, page }),
    );
    return {
      projects,
      nextCursor: !page ? undefined : next ? encodeCursor(next) : null,
    };
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
