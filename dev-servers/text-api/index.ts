export {
  DevTextApi,
  DEV_TEXT_MODELS,
  type DevTextApiOptions,
  type DevTextReply,
  type RecordedChatRequest,
} from './dev-text-api';
