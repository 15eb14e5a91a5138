/**
 * A team's own image, as the multipart form of POST
 * /api/projects/{id}/logos brought it: the file's bytes as sent (nothing
 * about them is trusted yet) and the name it was sent with.
 */
export class UploadedLogo {
  constructor(
    readonly bytes: Buffer,
    /** The `fileName` field, else the file part's own name. */
    readonly sentName: string | undefined,
  ) {}
}
