/**
 * The heap Node gives itself in the Deployment's pod (limits.memory 512Mi),
 * for a server process started on this machine: V8 sizes its old
 * generation to a quarter of the memory it may use. On a 24 GB machine it
 * would allow 4 GB and collect garbage that late, which is RSS the pod never
 * sees. With that flag alone, Node 24 here gives the young generation
 * 64 MB semi-spaces (a 320 MB heap limit, against 176 MB with the second
 * flag), and beside a 128 MB old generation V8 then ran a full collection
 * every 50 ms while idle. The second flag keeps the young generation at
 * Node 20's size.
 */
export const POD_HEAP_FLAGS = [
  '--max-old-space-size=128',
  '--max-semi-space-size=16',
];
