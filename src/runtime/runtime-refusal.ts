import { realpathSync } from 'node:fs';
import { nodeBinaryProblem, pinnedBinaryRoot } from './node-binary';

/**
 * The Node.js major the service is built and tested for (package.json's
 * engines; test/contract/sqlite/repository/runtime-pin.e2e-spec.ts keeps them equal). A
 * constant, not read from package.json, so it holds in a bundle too.
 */
export const REQUIRED_NODE_MAJOR = 26;

/**
 * Why this process must not start the service, in one line, or undefined:
 * another Node.js major (npm start falls back to the machine's node when
 * `npm ci --omit=optional` or another platform left the pinned one out), or a pinned binary
 * that is not the recorded one.
 */
export function runtimeRefusal(
  version: string,
  execPath: string,
): string | undefined {
  const major = Number(/^v(\d+)\./.exec(version)?.[1]);
  if (major !== REQUIRED_NODE_MAJOR) {
    return `This service runs on Node.js ${REQUIRED_NODE_MAJOR} and this is ${version}: run \`npm ci\` (without --omit=optional) and start it with npm, or put Node.js ${REQUIRED_NODE_MAJOR} first on PATH (.nvmrc)`;
  }
  let real: string;
  try {
    real = realpathSync(execPath);
  } catch {
    return undefined;
  }
  const root = pinnedBinaryRoot(real);
  return root === undefined
    ? undefined
    : nodeBinaryProblem(root, { fast: true });
}
