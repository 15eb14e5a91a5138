import 'reflect-metadata';
import {
  Controller,
  Get,
  Header,
  Inject,
  Module,
  NotFoundException,
  Param,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import Database from 'better-sqlite3';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { STORED_ANSWER_READ } from './stored-answers';

/**
 * The reference of the first-seconds bench: the least a NestJS 12 app needs
 * to answer GET /api/projects/{id} from the service's SQLite file with the
 * same three reads (the project, its sections, its agents) on prepared
 * statements. `minimal-nest-app.ts <sqliteFile> [port] [storedAnswersFile]`
 * prints `{"port":N}`; with a stored-answers file (stored-answers.ts) the
 * route instead answers each project's stored row as it is. Its providers
 * name their tokens, so it runs without decorator metadata (bundled by
 * esbuild).
 */

const DB = 'DB';
const STORED = 'STORED';

@Controller()
class MinimalController {
  private readonly project: Database.Statement;
  private readonly sections: Database.Statement;
  private readonly agents: Database.Statement;

  constructor(@Inject(DB) db: Database.Database) {
    this.project = db.prepare(
      'SELECT id, name, description, userId, createdAt, updatedAt FROM projects WHERE id = ?',
    );
    this.sections = db.prepare(
      'SELECT id, type, status, position, createdAt, updatedAt FROM sections WHERE projectId = ? ORDER BY position',
    );
    this.agents = db.prepare(
      'SELECT id, name, type, provider, status, createdAt, updatedAt FROM agents WHERE projectId = ? ORDER BY createdAt, id',
    );
  }

  @Get('health/ready')
  ready() {
    return { status: 'ok' };
  }

  @Get('api/projects/:id')
  get(@Param('id') id: string) {
    const project = this.project.get(id) as Record<string, unknown> | undefined;
    if (!project) throw new NotFoundException();
    return {
      project: {
        ...project,
        sections: this.sections.all(id),
        agents: this.agents.all(id),
      },
    };
  }
}

/** One read of one row per request: the answer kept whole, per project. */
@Controller()
class StoredAnswerController {
  private readonly answer: Database.Statement;

  constructor(@Inject(STORED) db: Database.Database) {
    this.answer = db.prepare(STORED_ANSWER_READ).pluck();
  }

  @Get('health/ready')
  ready() {
    return { status: 'ok' };
  }

  @Get('api/projects/:id')
  @Header('Content-Type', 'application/json; charset=utf-8')
  get(@Param('id') id: string) {
    const body = this.answer.get(id) as string | undefined;
    if (body === undefined) throw new NotFoundException();
    return body;
  }
}

const storedAnswersFile = process.argv[4];

@Module({
  controllers: [storedAnswersFile ? StoredAnswerController : MinimalController],
  providers: [
    { provide: DB, useFactory: () => new Database(process.argv[2]) },
    {
      provide: STORED,
      useFactory: () =>
        storedAnswersFile ? new Database(storedAnswersFile) : undefined,
    },
  ],
})
class MinimalModule {}

async function main() {
  const app = await NestFactory.create(MinimalModule, { logger: false });
  app.enableShutdownHooks();
  await app.listen(Number(process.argv[3] ?? 0), '127.0.0.1');
  // The bench's helper-server protocol: its port on the first line.
  const server = app.getHttpServer() as Server;
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ port })}\n`);
}

void main();
