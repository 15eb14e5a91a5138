import {
  Body,
  Controller,
  Delete,
  Get,
  Header,
  Param,
  Patch,
  Post,
  Query,
} from '@nestjs/common';
import { FailureMessage } from '../common/http/failure-message.decorator';
import {
  JSON_CONTENT_TYPE,
  jsonArrayText,
  jsonObjectText,
} from '../common/http/json-text';
import { RawBody } from '../common/http/raw-body.decorator';
import { CreateProjectDto } from './dto/create-project.dto';
import { ListProjectsQuery } from './dto/list-projects.query';
import { ProjectsService } from './projects.service';

@Controller('api/projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Post()
  @FailureMessage('Failed to create project')
  async create(@Body() input: CreateProjectDto) {
    return { project: await this.projects.create(input) };
  }

  // GET bodies arrive as JSON text rendered by the database.
  @Get()
  @FailureMessage('Failed to fetch projects')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  async list(@Query() query: ListProjectsQuery): Promise<string> {
    const { projects, nextCursor } = await this.projects.list(query);
    return jsonObjectText({
      projects: jsonArrayText(projects),
      // Only for a paged request: the default body is SPEC's.
      nextCursor:
        nextCursor === undefined ? undefined : JSON.stringify(nextCursor),
    });
  }

  @Get(':id')
  @FailureMessage('Failed to fetch project')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  async get(@Param('id') id: string): Promise<string> {
    return jsonObjectText({ project: await this.projects.get(id) });
  }

  // SPEC 4.4 applies the body without validation, so it bypasses the
  // validation pipe; the service decides whether it can be applied.
  @Patch(':id')
  @FailureMessage('Failed to update project')
  async update(@Param('id') id: string, @RawBody() body: unknown) {
    return { project: await this.projects.update(id, body) };
  }

  @Delete(':id')
  @FailureMessage('Failed to delete project')
  async remove(@Param('id') id: string) {
    await this.projects.remove(id);
    return { success: true };
  }
}
