import type {
  ChatAnswer,
  ChatRequest,
  TextApiClient,
} from '../../text-generation/text-api.client';
import type { UsageService } from '../../usage/usage.service';
import type { TaskWork } from './task-kind';

/** About four characters a token in English: the estimate's input side. */
const CHARACTERS_PER_TOKEN = 4;

/**
 * A text or code model call of a task, metered: its cost estimated (the
 * prompt's length, and every token it may answer) and reserved against the
 * owner's and the project's budgets before it is sent, settled with the
 * tokens the model reports.
 */
export function meteredCompletion(
  usage: UsageService,
  text: TextApiClient,
  work: TaskWork,
  request: ChatRequest,
): Promise<ChatAnswer> {
  const characters = request.messages.reduce(
    (sum, message) => sum + message.content.length,
    0,
  );
  return usage.metered(
    {
      userKey: work.clientKey,
      projectId: work.project.id,
      taskId: work.task.id,
    },
    {
      kind: 'text',
      model: text.modelFor(request.purpose),
      units: {
        images: 0,
        inputTokens: Math.ceil(characters / CHARACTERS_PER_TOKEN),
        outputTokens: request.maxCompletionTokens,
      },
    },
    () => text.complete(request),
    (answer) => ({
      model: answer.model,
      units: { images: 0, ...answer.usage },
    }),
  );
}
