/**
 * A landing-page task's input: nothing (unknown fields are stripped). The
 * page is written from the project's name and description, its latest
 * marketing copy and its chosen logo.
 */
export class LandingPageInputDto {}
