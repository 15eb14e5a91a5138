/* eslint-disable */
export default async () => {
  const t = {
    ['./common/http/error-responses.dto']: require('../failures/error-responses.dto'),
    ['./projects/dto/project-responses.dto']: require('../projects/dto/project-responses.dto'),
  };
  return {
    '@nestjs/swagger': {
      models: [
        [
          Promise.resolve(require('../failures/error-responses.dto')),
          {
            ValidationIssueDto: {
              path: { required: true, type: () => [Object] },
              message: { required: true, type: () => String },
              code: { required: true, type: () => String },
            },
            ErrorResponseDto: { error: { required: true, type: () => String } },
            ValidationErrorResponseDto: {
              error: { required: true, type: () => String },
              details: {
                required: true,
                type: () => [
                  t['./common/http/error-responses.dto'].ValidationIssueDto,
                ],
              },
            },
            LogoErrorResponseDto: {
              success: { required: true, type: () => Boolean },
              error: { required: true, type: () => String },
            },
            LogoValidationErrorResponseDto: {
              error: { required: true, type: () => String },
              details: {
                required: true,
                type: () => [
                  t['./common/http/error-responses.dto'].ValidationIssueDto,
                ],
              },
            },
          },
        ],
        [
          Promise.resolve(require('../logo/dto/generate-logo.dto')),
          {
            GenerateLogoDto: {
              projectId: {
                required: true,
                type: () => String,
                description:
                  'Required, otherwise unused: the project is not looked up, and the logo is not linked to it.',
              },
              companyName: { required: true, type: () => String, minLength: 1 },
              style: {
                required: true,
                enum: [
                  'modern',
                  'minimalist',
                  'vintage',
                  'playful',
                  'professional',
                  'abstract',
                  'geometric',
                  'organic',
                ],
              },
              colors: { required: true, type: () => [String], minItems: 1 },
              description: { required: false, type: () => String },
              industry: { required: false, type: () => String },
              mood: { required: false, type: () => [String] },
            },
          },
        ],
        [
          Promise.resolve(require('../logo/dto/logo-responses.dto')),
          {
            GenerateLogoResponseDto: {
              success: { required: true, type: () => Boolean },
              logoUrl: { required: true, type: () => String },
              message: { required: true, type: () => String },
            },
            LogoGeneratorInfoDto: {
              service: { required: true, type: () => String },
              status: {
                required: true,
                enum: ['configured', 'not_configured'],
              },
              message: { required: true, type: () => String },
              supportedStyles: { required: true, type: () => [String] },
              maxColors: { required: true, type: () => Number },
            },
          },
        ],
        [
          Promise.resolve(require('../projects/dto/create-project.dto')),
          {
            CreateProjectDto: {
              name: { required: true, type: () => String, minLength: 1 },
              description: { required: false, type: () => String },
              userId: { required: true, type: () => String },
            },
          },
        ],
        [
          Promise.resolve(require('../projects/dto/list-projects.query')),
          {
            ListProjectsQuery: {
              userId: { required: false, type: () => String },
              limit: {
                required: false,
                type: () => Number,
                description:
                  'Page size; the response then carries `nextCursor`.',
                minimum: 1,
              },
              cursor: {
                required: false,
                type: () => String,
                description:
                  'The `nextCursor` of the previous page (opaque). Needs `limit`.',
              },
            },
          },
        ],
        [
          Promise.resolve(require('../projects/dto/project-responses.dto')),
          {
            AssetDto: {
              id: { required: true, type: () => String },
              projectId: { required: true, type: () => String },
              sectionId: { required: true, type: () => String, nullable: true },
              type: { required: true, type: () => String },
              name: { required: true, type: () => String, nullable: true },
              url: { required: true, type: () => String },
              createdAt: { required: true, type: () => String },
            },
            SectionDto: {
              id: { required: true, type: () => String },
              projectId: { required: true, type: () => String },
              type: { required: true, type: () => String },
              status: { required: true, type: () => String },
              createdAt: { required: true, type: () => String },
              updatedAt: { required: true, type: () => String },
            },
            SectionWithAssetsDto: {
              assets: {
                required: true,
                type: () => [
                  t['./projects/dto/project-responses.dto'].AssetDto,
                ],
              },
            },
            AgentDto: {
              id: { required: true, type: () => String },
              projectId: { required: true, type: () => String },
              name: { required: true, type: () => String },
              type: { required: true, type: () => String },
              provider: { required: true, type: () => String },
              status: { required: true, type: () => String },
              createdAt: { required: true, type: () => String },
              updatedAt: { required: true, type: () => String },
            },
            TaskDto: {
              id: { required: true, type: () => String },
              projectId: { required: true, type: () => String },
              sectionId: { required: true, type: () => String, nullable: true },
              agentId: { required: true, type: () => String, nullable: true },
              title: { required: true, type: () => String },
              description: {
                required: true,
                type: () => String,
                nullable: true,
              },
              status: { required: true, type: () => String },
              createdAt: { required: true, type: () => String },
              updatedAt: { required: true, type: () => String },
            },
            ProjectCountDto: {
              tasks: { required: true, type: () => Number },
              assets: { required: true, type: () => Number },
            },
            ProjectDto: {
              id: { required: true, type: () => String },
              name: { required: true, type: () => String },
              description: {
                required: true,
                type: () => String,
                nullable: true,
              },
              userId: { required: true, type: () => String },
              createdAt: { required: true, type: () => String },
              updatedAt: { required: true, type: () => String },
            },
            ProjectWithDefaultsDto: {
              sections: {
                required: true,
                type: () => [
                  t['./projects/dto/project-responses.dto'].SectionDto,
                ],
              },
              agents: {
                required: true,
                type: () => [
                  t['./projects/dto/project-responses.dto'].AgentDto,
                ],
              },
            },
            ProjectListItemDto: {
              tasks: {
                required: true,
                type: () => [t['./projects/dto/project-responses.dto'].TaskDto],
              },
              _count: {
                required: true,
                type: () =>
                  t['./projects/dto/project-responses.dto'].ProjectCountDto,
              },
            },
            ProjectDetailDto: {
              sections: {
                required: true,
                type: () => [
                  t['./projects/dto/project-responses.dto']
                    .SectionWithAssetsDto,
                ],
              },
              agents: {
                required: true,
                type: () => [
                  t['./projects/dto/project-responses.dto'].AgentDto,
                ],
              },
              tasks: {
                required: true,
                type: () => [t['./projects/dto/project-responses.dto'].TaskDto],
              },
              assets: {
                required: true,
                type: () => [
                  t['./projects/dto/project-responses.dto'].AssetDto,
                ],
              },
            },
            ProjectResponseDto: {
              project: {
                required: true,
                type: () =>
                  t['./projects/dto/project-responses.dto']
                    .ProjectWithDefaultsDto,
              },
            },
            ProjectDetailResponseDto: {
              project: {
                required: true,
                type: () =>
                  t['./projects/dto/project-responses.dto'].ProjectDetailDto,
              },
            },
            ProjectListResponseDto: {
              projects: {
                required: true,
                type: () => [
                  t['./projects/dto/project-responses.dto'].ProjectListItemDto,
                ],
              },
              nextCursor: {
                required: false,
                type: () => String,
                nullable: true,
              },
            },
            DeleteProjectResponseDto: {
              success: { required: true, type: () => Boolean },
            },
            UpdateProjectBodyDto: {
              name: { required: false, type: () => String },
              description: {
                required: false,
                type: () => String,
                nullable: true,
              },
              userId: { required: false, type: () => String },
              id: { required: false, type: () => String },
              createdAt: { required: false, type: () => String },
              updatedAt: { required: false, type: () => String },
            },
          },
        ],
      ],
      controllers: [
        [
          Promise.resolve(require('../health/health.controller')),
          {
            HealthController: {
              live: {
                summary:
                  'Liveness: the process answers. Never depends on the database.',
                type: Object,
              },
              ready: {
                summary:
                  'Readiness: the database answers, and the process is not shutting down.',
                type: Object,
              },
            },
          },
        ],
        [
          Promise.resolve(require('../metrics/metrics.controller')),
          { MetricsController: { scrape: { type: String } } },
        ],
        [
          Promise.resolve(require('../logo/hosted-logo.controller')),
          { HostedLogoController: { get: {} } },
        ],
        [
          Promise.resolve(require('../logo/logo.controller')),
          { LogoController: { generate: { type: String }, info: {} } },
        ],
        [
          Promise.resolve(require('../projects/projects.controller')),
          {
            ProjectsController: {
              create: { type: String },
              list: { type: Object },
              get: { type: String },
              update: { type: String },
              remove: {},
            },
          },
        ],
      ],
    },
  };
};
