import { nodeBinaryProblem } from '../src/runtime/node-binary';

/**
 * npm's postinstall: checks the pinned Node.js binary against
 * node-binaries.json before anything runs on it. package.json runs it with
 * the Node.js that runs npm ($npm_node_execpath), not with the binary under
 * check. Silent when it matches; one line and exit 1 when not.
 */
// npm runs it in the package's folder; the test runs it in a copied tree.
const problem = nodeBinaryProblem(process.cwd());
if (problem !== undefined) {
  console.error(problem);
  process.exit(1);
}
