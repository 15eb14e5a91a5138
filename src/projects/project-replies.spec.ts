import { replayedReply } from '../idempotency/replayed';
import {
  createdProjectReply,
  projectReadReply,
  projectReply,
} from './project-replies';

const document = { id: 'a b', version: 3, json: '{"project":{}}' };

describe('the replies of the project routes', () => {
  it('a create: 201 with its ETag and Location, the JSON text as it is', () => {
    expect(createdProjectReply(document)).toEqual({
      status: 201,
      headers: { ETag: '"3"', Location: '/api/projects/a%20b' },
      body: '{"project":{}}',
    });
  });

  it('a read or an update: 200 with its ETag', () => {
    expect(projectReply(document)).toEqual({
      status: 200,
      headers: { ETag: '"3"' },
      body: '{"project":{}}',
    });
    expect(projectReadReply(document)).toEqual(projectReply(document));
  });

  it('a read of an unchanged project: 304 with its ETag and no body', () => {
    expect(projectReadReply({ unchanged: true, id: 'a', version: 4 })).toEqual({
      status: 304,
      headers: { ETag: '"4"' },
    });
  });

  it('a replay: the stored answer, marked as one', () => {
    const stored = createdProjectReply(document);
    expect(replayedReply({ replayed: stored })).toEqual({
      ...stored,
      headers: { ...stored.headers, 'Idempotent-Replayed': 'true' },
    });
  });
});
