import { loadConfiguration } from './environment';

/** A DATABASE_URL the service cannot use: what is allowed, and what it got. */

function refusal(value: string): string {
  try {
    loadConfiguration({ DATABASE_URL: value });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`DATABASE_URL=${value} was accepted`);
}

describe('DATABASE_URL refusal', () => {
  it('says what is allowed and what it got', () => {
    expect(refusal('mysql://x')).toBe(
      'Invalid configuration: DATABASE_URL must be file:PATH, file::memory: or a postgres:// URL (got "mysql://x")',
    );
  });

  it('shows the value without its user and password', () => {
    const message = refusal('mysql://admin:hunter2@db.internal:3306/app');
    expect(message).toContain('(got "mysql://***@db.internal:3306/app")');
    expect(message).not.toContain('hunter2');
    expect(message).not.toContain('admin');
  });

  it('hides a password given as a parameter', () => {
    const message = refusal('mysql://db/app?user=a&password=hunter2');
    expect(message).toContain('password=***');
    expect(message).not.toContain('hunter2');
  });
});
