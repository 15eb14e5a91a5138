export {
  DevImageApi,
  GENERATIONS_PATH,
  type DevImageApiOptions,
  type RecordedRequest,
} from './dev-image-api';
export {
  FAKE_IMAGE_URL,
  Replies,
  type DevReply,
  type DevReplyOptions,
} from './replies';
