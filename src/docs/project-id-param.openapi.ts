import { ApiParam } from '@nestjs/swagger';

/**
 * The `{id}` of every route under /api/projects/{id}: described once, so
 * each feature's routes name it alike, with the id the examples use.
 */
export const PROJECT_ID_PARAM = ApiParam({
  name: 'id',
  description: 'The project id',
  schema: { type: 'string', example: '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20' },
});
