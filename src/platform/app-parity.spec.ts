import { Controller, Get, Module } from '@nestjs/common';
import { HttpAdapterHost, ModulesContainer } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Test } from '@nestjs/testing';
import type { Application } from 'express';
import request from 'supertest';
import { Reply } from '../common/http/reply';
import {
  removeNestBodyParsers,
  sendReplies,
  swaggerApplication,
} from './app-parity';

type Layer = { handle?: { name?: string; __original?: unknown } };
const layerNames = (app: Application) =>
  (app.router as unknown as { stack: Layer[] }).stack.map(
    (layer) => layer.handle?.name,
  );

describe('removeNestBodyParsers', () => {
  it("removes the parsers Nest's Express adapter registers, and nothing else", () => {
    const adapter = new ExpressAdapter();
    const app = adapter.getInstance<Application>();
    app.use(function before(_req, _res, next) {
      next();
    });
    adapter.registerParserMiddleware();
    expect(layerNames(app)).toEqual(
      expect.arrayContaining(['jsonParser', 'urlencodedParser']),
    );

    removeNestBodyParsers(app);

    expect(layerNames(app)).not.toContain('jsonParser');
    expect(layerNames(app)).not.toContain('urlencodedParser');
    expect(layerNames(app)).toContain('before');
  });

  it('finds a parser under a wrapper (as tracing wraps every layer)', () => {
    const adapter = new ExpressAdapter();
    const app = adapter.getInstance<Application>();
    adapter.registerParserMiddleware();
    const others = layerNames(app).filter(
      (name) => name !== 'jsonParser' && name !== 'urlencodedParser',
    ).length;
    for (const layer of (app.router as unknown as { stack: Layer[] }).stack) {
      const original = layer.handle;
      layer.handle = { name: 'patched', __original: original };
    }

    removeNestBodyParsers(app);

    expect(layerNames(app)).toHaveLength(others);
  });

  it('leaves an app created with bodyParser: false as it is', async () => {
    const moduleRef = await Test.createTestingModule({}).compile();
    const nest = moduleRef.createNestApplication({ bodyParser: false });
    await nest.init();
    const app = nest.getHttpAdapter().getInstance() as Application;
    const before = layerNames(app);

    removeNestBodyParsers(app);

    expect(layerNames(app)).toEqual(before);
    await nest.close();
  });

  it('removes the parsers of an app created with no options, as AppModule does', async () => {
    const moduleRef = await Test.createTestingModule({}).compile();
    const nest = moduleRef.createNestApplication();
    await nest.init();
    const app = nest.getHttpAdapter().getInstance() as Application;
    expect(layerNames(app)).toContain('jsonParser');

    removeNestBodyParsers(app);

    expect(layerNames(app)).not.toContain('jsonParser');
    expect(layerNames(app)).not.toContain('urlencodedParser');
    await nest.close();
  });
});

describe('swaggerApplication', () => {
  @Controller('things')
  class ThingsController {
    @Get()
    list(): string[] {
      return [];
    }
  }

  @Module({ controllers: [ThingsController] })
  class ThingsModule {}

  it('scans the same document as the real application', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ThingsModule],
    }).compile();
    const nest = moduleRef.createNestApplication();
    await nest.init();
    const config = new DocumentBuilder().setTitle('Things').build();

    const standIn = swaggerApplication(
      nest.get(ModulesContainer),
      nest.get(HttpAdapterHost).httpAdapter,
    );

    const fromStandIn = SwaggerModule.createDocument(standIn, config);
    expect(Object.keys(fromStandIn.paths)).toEqual(['/things']);
    expect(fromStandIn).toEqual(SwaggerModule.createDocument(nest, config));
    await nest.close();
  });
});

describe('sendReplies', () => {
  @Controller()
  class RepliesController {
    @Get('created')
    created() {
      return new Reply(201, { Location: '/x/1', ETag: '"1"' }, '{"id":"1"}');
    }

    @Get('not-modified')
    notModified() {
      return new Reply(304, { ETag: '"1"' });
    }

    @Get('plain')
    plain() {
      return { plain: true };
    }
  }

  @Module({ controllers: [RepliesController] })
  class RepliesModule {}

  it("sends a handler's Reply with its status and headers, and any other result as Nest does", async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [RepliesModule],
    }).compile();
    const app = moduleRef.createNestApplication();
    sendReplies(app.get(HttpAdapterHost).httpAdapter);
    await app.init();
    try {
      const created = await request(app.getHttpServer()).get('/created');
      expect(created.status).toBe(201);
      expect(created.headers.location).toBe('/x/1');
      expect(created.headers.etag).toBe('"1"');
      expect(created.headers['content-type']).toBe(
        'application/json; charset=utf-8',
      );
      expect(created.text).toBe('{"id":"1"}');

      const notModified = await request(app.getHttpServer()).get(
        '/not-modified',
      );
      expect(notModified.status).toBe(304);
      expect(notModified.headers.etag).toBe('"1"');
      expect(notModified.text).toBe('');

      const plain = await request(app.getHttpServer()).get('/plain');
      expect(plain.status).toBe(200);
      expect(plain.body).toEqual({ plain: true });
    } finally {
      await app.close();
    }
  });
});
