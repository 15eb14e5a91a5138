/**
 * One failed rule, in the shape clients of the original service (which used
 * Zod issues) already read: `details: [{ path, message, code }]`.
 */
export interface ValidationIssue {
  path: (string | number)[];
  message: string;
  code: string;
}
