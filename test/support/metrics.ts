import request from 'supertest';
import type { TestApp } from './test-app';

/** A counter or gauge (summed over its labels matching `labels`) from /metrics. */
export async function metric(
  t: TestApp,
  name: string,
  labels = '',
): Promise<number> {
  const { text } = await request(t.server).get('/metrics').expect(200);
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (!(rest.startsWith(' ') || rest.startsWith('{'))) continue;
    if (labels && !rest.includes(labels)) continue;
    total += Number(line.split(' ').at(-1));
  }
  return total;
}
