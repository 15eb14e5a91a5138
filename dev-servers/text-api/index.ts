export {
  DevTextApi,
  DEV_TEXT_MODELS,
  type DevTextApiOptions,
  type DevTextReply,
  type RecordedChatRequest,
} from './dev-text-api';
export {
  HOSTILE_SVG_NAMES,
  HOSTILE_SVGS,
  type HostileSvgName,
} from './hostile-svgs';
