import { Inject, INestApplication, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost, ModulesContainer } from '@nestjs/core';
import {
  DocumentBuilder,
  SwaggerModule,
  type OpenAPIObject,
} from '@nestjs/swagger';
import type { ConfigType } from '@nestjs/config';
import { apiDocsConfig } from './api-docs.config';
import { httpConfig } from '../platform/http.config';
import { docsContentSecurityPolicy } from '../platform/security-headers';
import type { Application } from 'express';
import loadOpenApiMetadata from '../generated/metadata';
import { swaggerApplication } from '../platform/app-parity';
import { finishDocument } from './document-finishing';

export const DOCS_PATH = 'docs';
export const DOCS_JSON_PATH = 'docs-json';

/**
 * Swagger UI at /docs and the OpenAPI 3 document at /docs-json, outside /api.
 *
 * `SwaggerModule.setup` wants the application object, which only main.ts
 * has; an app built from AppModule alone (the e2e suites, a user's suite)
 * must serve the same document. So the document is built and mounted here,
 * when the modules are initialised, on the stand-in of the application that
 * platform/app-parity.ts builds. The routes are added after the API's
 * routes and before Nest's 404 handler, so they change no /api answer.
 */
@Module({})
export class ApiDocsModule implements OnModuleInit {
  private application?: INestApplication;
  private built?: OpenAPIObject;

  constructor(
    private readonly modules: ModulesContainer,
    private readonly adapterHost: HttpAdapterHost,
    @Inject(apiDocsConfig.KEY)
    private readonly config: ConfigType<typeof apiDocsConfig>,
    @Inject(httpConfig.KEY)
    private readonly http: ConfigType<typeof httpConfig>,
  ) {}

  /**
   * The document served at /docs-json (for `npm run client:generate`),
   * built on first use: scanning every route and DTO took about 45 ms of
   * each start-up (a tenth of the cold start) for a page few requests ask
   * for. The routes are mounted at start-up all the same.
   */
  get document(): OpenAPIObject {
    if (!this.application) {
      throw new Error('ApiDocsModule: the app is not initialised yet');
    }
    this.built ??= createOpenApiDocument(
      this.application,
      this.config.bearerAuth,
      this.http.publicBaseUrl,
    );
    return this.built;
  }

  async onModuleInit(): Promise<void> {
    // The compiler plugin's metadata, for builds where the plugin did not run.
    await SwaggerModule.loadPluginMetadata(loadOpenApiMetadata);
    this.application = swaggerApplication(
      this.modules,
      this.adapterHost.httpAdapter,
    );
    // Replaces the API's policy on the Swagger UI pages (and only there:
    // '/docs' matches /docs and /docs/…, not /docs-json).
    const policy = docsContentSecurityPolicy();
    this.adapterHost.httpAdapter
      .getInstance<Application>()
      .use(`/${DOCS_PATH}`, (_request, response, next) => {
        response.setHeader('Content-Security-Policy', policy);
        next();
      });
    // A factory: Swagger calls it on the first request for the document.
    SwaggerModule.setup(DOCS_PATH, this.application, () => this.document, {
      jsonDocumentUrl: DOCS_JSON_PATH,
      yamlDocumentUrl: 'docs-yaml',
      customSiteTitle: 'Workspace API',
    });
  }
}

function createOpenApiDocument(
  application: INestApplication,
  bearerRequired: boolean,
  publicBaseUrl: string | undefined,
): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Workspace API')
    .setDescription(
      'Project workspaces (projects with default sections and AI agents) and AI logo generation. ' +
        'Every body is JSON. Project routes fail with {error}; the logo route with {success:false, error}.',
    )
    .setVersion('1.0.0')
    .addTag(
      'projects',
      'Projects with their sections, agents, tasks and assets',
    )
    .addTag('logo', 'Logo generation through an OpenAI-compatible image model')
    // The address the service is published at; without one, relative: the
    // server that served this document, so Swagger UI's "Execute" reaches
    // it on whatever host and port it runs.
    .addServer(
      publicBaseUrl ?? '/',
      publicBaseUrl
        ? 'This service (PUBLIC_BASE_URL)'
        : 'The server that serves this document',
    )
    .build();
  return finishDocument(
    SwaggerModule.createDocument(application, config),
    bearerRequired,
  );
}
