type Env = Record<string, string | undefined>;

/**
 * Runs `work` with the given environment variables set (undefined = unset)
 * and puts the previous values back afterwards.
 */
export async function withEnv<T>(
  overrides: Env,
  work: () => Promise<T>,
): Promise<T> {
  const saved: Env = {};
  for (const [name, value] of Object.entries(overrides)) {
    saved[name] = process.env[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  try {
    return await work();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
