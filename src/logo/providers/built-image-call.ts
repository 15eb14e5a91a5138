/** One provider call, ready to send: its body and how the image comes back. */
export interface BuiltImageCall {
  body: Record<string, unknown>;
  /** `base64`: `data[0].b64_json` (streamed to the decoder); else `data[0].url`. */
  answer: 'base64' | 'url';
}

/** What the configuration adds to an ImageRequest. */
export interface ImageCallSettings {
  /** IMAGE_RESPONSE_FORMAT: the answer asked of models that take the choice. */
  responseFormat: 'url' | 'b64_json';
}
