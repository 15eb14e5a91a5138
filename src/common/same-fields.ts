/** The fields one of A and B has and the other does not. */
type FieldsInOneOnly<A, B> =
  Exclude<keyof A, keyof B> | Exclude<keyof B, keyof A>;

/**
 * `true` when A and B have the same fields, each of the same type (optional
 * or not); otherwise a type naming what differs, to which `true` cannot be
 * assigned: `const check: SameFields<A, B> = true` fails to compile the
 * moment a field is added to one and not the other.
 */
export type SameFields<A, B> = [FieldsInOneOnly<A, B>] extends [never]
  ? [Required<A>] extends [Required<B>]
    ? [Required<B>] extends [Required<A>]
      ? true
      : { fieldTypesDiffer: true }
    : { fieldTypesDiffer: true }
  : { fieldsInOneOnly: FieldsInOneOnly<A, B> };
