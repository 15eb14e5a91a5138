import { Reply } from '../common/http/reply';

/**
 * The answer first given for an Idempotency-Key, as it was stored: what a
 * keyed request gets instead of doing the work again.
 */
export interface Replayed {
  replayed: Reply;
}

export const isReplayed = (result: object): result is Replayed =>
  'replayed' in result;

/** The stored answer again, byte for byte, marked as a replay. */
export const replayedReply = ({ replayed }: Replayed): Reply =>
  new Reply(
    replayed.status,
    { ...replayed.headers, 'Idempotent-Replayed': 'true' },
    replayed.body,
  );
