import { Reply } from '../common/http/reply';
import type { ReplayableAnswer } from './replayable-answer';

/**
 * The answer first given for an Idempotency-Key, as it was stored: what a
 * keyed request gets instead of doing the work again.
 */
export interface Replayed {
  replayed: ReplayableAnswer;
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

/**
 * What a keyed route answers: the replay, or its result as `answerOf`
 * sends it (the same mapping the key stored).
 */
export const replyOrReplay = <Result extends object>(
  result: Result | Replayed,
  answerOf: (result: Result) => Reply,
): Reply => (isReplayed(result) ? replayedReply(result) : answerOf(result));
