import type { ColumnsAnswered } from './entity-columns';

/**
 * The checks are types: each case below compiles, or fails to compile
 * where `@ts-expect-error` says it must (`npm run typecheck` fails if it
 * does not). The test only keeps the cases in a suite.
 */

class Owner {
  id: string;
}

class Thing {
  id: string;
  name: string;
  note: string | null;
  kind: 'a' | 'b';
  createdAt: Date;
  doneAt: Date | null;
  payload: string;
  order: number;
  owner?: Owner;
  owners: Owner[];
}

class ThingDto {
  id: string;
  name: string;
  note: string | null;
  kind: string;
  createdAt: string;
  doneAt: string | null;
  payload: Record<string, unknown>;
}

type Checked<
  Shape,
  Internal extends 'order' | 'name' = 'order',
> = ColumnsAnswered<Thing, Shape, Internal, 'payload' & keyof Shape>;

describe('ColumnsAnswered', () => {
  it('accepts a shape with every column but the internal ones, relations aside', () => {
    const same: Checked<ThingDto> = true;
    expect(same).toBe(true);
  });

  it('refuses a column neither answered nor listed as internal', () => {
    // @ts-expect-error columnsNoAnswerShows: "name"
    const missing: Checked<Omit<ThingDto, 'name'>> = true;
    expect(missing).toBe(true);
  });

  it('refuses a field without its column', () => {
    // @ts-expect-error fieldsWithoutColumn: "color"
    const extra: Checked<ThingDto & { color: string }> = true;
    expect(extra).toBe(true);
  });

  it('refuses an internal column that the answer shows', () => {
    // @ts-expect-error internalColumnsTheAnswerShows: "name"
    const shown: Checked<ThingDto, 'order' | 'name'> = true;
    expect(shown).toBe(true);
  });

  it('refuses a field of another type, or null where the column has none', () => {
    // @ts-expect-error fieldsOfAnotherType: "name"
    const number: Checked<Omit<ThingDto, 'name'> & { name: number }> = true;
    // @ts-expect-error fieldsOfAnotherType: "name"
    const nullable: Checked<Omit<ThingDto, 'name'> & { name: string | null }> =
      true;
    // @ts-expect-error fieldsOfAnotherType: "doneAt"
    const notNull: Checked<Omit<ThingDto, 'doneAt'> & { doneAt: string }> =
      true;
    expect([number, nullable, notNull]).toEqual([true, true, true]);
  });
});
