import fc from 'fast-check';

/**
 * fc.assert, with its report cut short: a counterexample may hold a body of
 * hundreds of kilobytes. The seed and path in the report replay it.
 */
export async function assertProperty<T>(
  property: fc.IAsyncPropertyWithHooks<T>,
  parameters: fc.Parameters<T>,
): Promise<void> {
  try {
    await fc.assert(property, parameters);
  } catch (error) {
    // Errors from Node's own modules come from another realm than Jest's
    // sandbox, so `instanceof Error` is not to be trusted here.
    const { message = String(error), cause } = error as {
      message?: string;
      cause?: { message?: string };
    };
    throw new Error(
      `${cause?.message ?? ''}\n${message.length > 3_000 ? `${message.slice(0, 1_500)}\n…\n${message.slice(-1_500)}` : message}`,
      { cause: error },
    );
  }
}
