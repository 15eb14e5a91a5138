import 'reflect-metadata';
import {
  Controller,
  Get,
  Inject,
  Module,
  NotFoundException,
  Param,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import Database from 'better-sqlite3';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The reference of the first-seconds bench: the least a NestJS 12 app needs
 * to answer GET /api/projects/{id} from the service's SQLite file with the
 * same three reads (the project, its sections, its agents) on prepared
 * statements. `minimal-nest-app.ts <sqliteFile> [port]` prints `{"port":N}`. Its providers name
 * their tokens, so it runs without decorator metadata (bundled by esbuild).
 */

const DB = 'DB';

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

@Module({
  controllers: [MinimalController],
  providers: [{ provide: DB, useFactory: () => new Database(process.argv[2]) }],
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
