/** A generated logo: the temporary URL of its image. */
export interface GeneratedLogo {
  logoUrl: string;
}
