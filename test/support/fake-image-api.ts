import { DevImageApi, Replies } from '../../dev-servers/image-api';

/**
 * The image API stand-in of the contract suites: the dev image API itself
 * (dev-servers/image-api), on a free port of 127.0.0.1, answering
 * `Replies.success()` (logoUrl = FAKE_IMAGE_URL) unless a test says
 * otherwise, so those suites can compare URLs exactly. Suites that want
 * drawn logos start DevImageApi directly.
 */
export const FakeImageApi = {
  start: (): Promise<DevImageApi> =>
    DevImageApi.start({ defaultReply: Replies.success() }),
};
export type FakeImageApi = DevImageApi;

export {
  DevImageApi,
  FAKE_IMAGE_URL,
  Replies,
  type DevReply as FakeReply,
  type RecordedRequest,
} from '../../dev-servers/image-api';
