import type { JsonCursor } from '../database/json-cursor';
import { ProjectListBody } from './project-list-body';

/** A cursor over fixed chunks that records whether it was closed. */
function cursorOf(chunks: string[][], failAt?: number) {
  let read = 0;
  const state = { closed: 0 };
  const cursor: JsonCursor = {
    next: () => {
      read += 1;
      if (read === failAt) return Promise.reject(new Error('read failed'));
      return Promise.resolve(chunks[read - 1]);
    },
    close: () => {
      state.closed += 1;
      return Promise.resolve();
    },
  };
  return { cursor, state };
}

async function bodyOf(source: ProjectListBody): Promise<string> {
  let text = '';
  for (let piece = await source.next(); piece !== undefined;) {
    text += piece;
    piece = await source.next();
  }
  return text;
}

describe('ProjectListBody', () => {
  it('writes {"projects":[]} for an empty list', async () => {
    const { cursor } = cursorOf([]);
    expect(await bodyOf(await ProjectListBody.start(cursor))).toBe(
      '{"projects":[]}',
    );
  });

  it('joins the chunks into the body a list built whole would have', async () => {
    const { cursor } = cursorOf([['{"a":1}', '{"b":2}'], ['{"c":3}']]);
    const body = await bodyOf(await ProjectListBody.start(cursor));
    expect(body).toBe(
      JSON.stringify({ projects: [{ a: 1 }, { b: 2 }, { c: 3 }] }),
    );
  });

  it('closes the cursor once the last chunk is read', async () => {
    const { cursor, state } = cursorOf([['{"a":1}']]);
    await bodyOf(await ProjectListBody.start(cursor));
    expect(state.closed).toBeGreaterThan(0);
  });

  it('reads the first chunk before it is returned, and closes the cursor when that fails', async () => {
    const { cursor, state } = cursorOf([['{"a":1}']], 1);
    await expect(ProjectListBody.start(cursor)).rejects.toThrow('read failed');
    expect(state.closed).toBe(1);
  });
});
