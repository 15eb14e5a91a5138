import { ApiExtension, type OpenAPIObject } from '@nestjs/swagger';

type OperationObject = NonNullable<OpenAPIObject['paths'][string]['post']>;
export type MediaTypeObject = NonNullable<
  Exclude<OperationObject['requestBody'], { $ref: string } | undefined>
>['content'][string];

/**
 * Where a route states its `multipart/form-data` body until the document
 * is finished: @nestjs/swagger gives every media type of a request body
 * the one schema, and a form is not the JSON body.
 */
export const MULTIPART_BODY_EXTENSION = 'x-multipart-body';

/**
 * A `multipart/form-data` request body beside the route's JSON one
 * (ApiBody): finishDocument (document-finishing.ts) moves it into the
 * operation's requestBody.
 */
export const ApiMultipartBody = (media: MediaTypeObject) =>
  ApiExtension(MULTIPART_BODY_EXTENSION, media);
