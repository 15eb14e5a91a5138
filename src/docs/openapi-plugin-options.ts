/**
 * Options of the @nestjs/swagger compiler plugin. The same object configures
 * `nest build` (nest-cli.json must match it; a test checks) and the metadata
 * generator that writes src/generated/metadata.ts for builds without the plugin (ts-jest).
 */
export const OPENAPI_PLUGIN_OPTIONS = {
  dtoFileNameSuffix: ['.dto.ts', '.query.ts'],
  classValidatorShim: true,
  introspectComments: true,
};
