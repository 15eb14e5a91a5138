import { PluginMetadataGenerator } from '@nestjs/cli/lib/compiler/plugins/plugin-metadata-generator';
import { ReadonlyVisitor } from '@nestjs/swagger/plugin';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { OPENAPI_PLUGIN_OPTIONS } from '../src/docs/openapi-plugin-options';

const ROOT = join(__dirname, '..');
export const METADATA_FILE = join(ROOT, 'src', 'metadata.ts');

/**
 * The @nestjs/swagger plugin's metadata as source text: what the plugin adds
 * to DTOs during `nest build`, as a file that ApiDocsModule loads, so an app
 * compiled without the plugin (ts-jest) has the same document.
 *
 * The generator writes `await import('./x')`; Jest's CommonJS runtime cannot
 * run a dynamic import, so each becomes the `require` that `nest build`
 * compiles it to anyway.
 */
export async function renderOpenApiMetadata(): Promise<string> {
  const scratch = `metadata.generated-${process.pid}.ts`;
  try {
    new PluginMetadataGenerator().generate({
      visitors: [
        new ReadonlyVisitor({
          ...OPENAPI_PLUGIN_OPTIONS,
          pathToSource: join(ROOT, 'src'),
        }),
      ],
      outputDir: join(ROOT, 'src'),
      filename: scratch,
      // The CLI resolves it from the working directory.
      tsconfigPath: relative(process.cwd(), join(ROOT, 'tsconfig.build.json')),
      watch: false,
      printDiagnostics: false,
    });
    const generated = readFileSync(join(ROOT, 'src', scratch), 'utf8')
      .replace(/await import\(\s*(["'][^"']+["'])\s*\)/g, 'require($1)')
      .replace(
        /import\(\s*(["'][^"']+["'])\s*\)/g,
        'Promise.resolve(require($1))',
      );
    const options = await resolveConfig(METADATA_FILE);
    return await format(generated, { ...options, filepath: METADATA_FILE });
  } finally {
    rmSync(join(ROOT, 'src', scratch), { force: true });
  }
}

/** With `--check`, writes nothing and exits 1 when src/metadata.ts is stale. */
async function main(check: boolean): Promise<void> {
  const text = await renderOpenApiMetadata();
  if (!check) {
    writeFileSync(METADATA_FILE, text);
    console.log(`Wrote ${METADATA_FILE}`);
  } else if (readFileSync(METADATA_FILE, 'utf8') !== text) {
    console.error(
      `${METADATA_FILE} is out of date: run npm run openapi:metadata`,
    );
    process.exitCode = 1;
  }
}

if (require.main === module) {
  main(process.argv.includes('--check')).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
