/**
 * The heap Node gives itself in the Deployment's pod (limits.memory 512Mi),
 * for a server process started on this machine: V8 sizes its old
 * generation to a quarter of the memory it may use. On a 24 GB machine it
 * would allow 4 GB and collect garbage that late, which is RSS the pod never
 * sees. Node 24 sizes the young generation from that memory too (64 MB
 * semi-spaces on 24 GB, where the pod gets far less): beside a 128 MB old
 * generation that young generation made V8 run a full collection every
 * 50 ms while idle, a state no pod is in. 16 MB is Node 20's fixed size.
 */
export const POD_HEAP_FLAGS = [
  '--max-old-space-size=128',
  '--max-semi-space-size=16',
];
