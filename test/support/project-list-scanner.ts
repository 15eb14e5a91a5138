/**
 * Splits the text of `{"projects":[…]}` into the JSON text of each project
 * as it arrives, in any pieces, without holding more than one project: a
 * test can check a list of hundreds of megabytes as it streams.
 */
export class ProjectListScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** The current project's text so far (empty between projects). */
  private current = '';
  private inProject = false;
  private closed = false;

  /** Feeds the next piece of the body; returns the projects it completed. */
  push(piece: string): string[] {
    if (this.closed && piece.trim() !== '') {
      throw new Error('text after the end of the body');
    }
    const completed: string[] = [];
    let start = this.inProject ? 0 : -1;
    for (let i = 0; i < piece.length; i += 1) {
      const c = piece[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === '\\') this.escaped = true;
        else if (c === '"') this.inString = false;
        continue;
      }
      if (c === '"') {
        this.inString = true;
      } else if (c === '{' || c === '[') {
        this.depth += 1;
        // Depth 1 is the body, 2 its projects array, 3 a project.
        if (this.depth === 3) {
          this.inProject = true;
          start = i;
        }
      } else if (c === '}' || c === ']') {
        if (this.depth === 3) {
          completed.push(this.current + piece.slice(start, i + 1));
          this.current = '';
          this.inProject = false;
          start = -1;
        }
        this.depth -= 1;
        if (this.depth === 0) this.closed = true;
      }
    }
    if (this.inProject) this.current += piece.slice(start);
    return completed;
  }

  /** Whether the body ended: its outer object was closed. */
  get complete(): boolean {
    return this.closed && this.depth === 0;
  }
}
