import type { ChunkSource } from '../common/http/json-chunk-stream';
import type { JsonCursor } from '../database/json-cursor';

const OPEN = '{"projects":[';
const CLOSE = ']}';

/**
 * The full list's body, `{"projects":[…]}`, byte for byte as a body built whole
 * would be, in pieces of one cursor chunk each.
 */
export class ProjectListBody implements ChunkSource {
  private opened = false;
  private ended = false;

  private constructor(
    private readonly cursor: JsonCursor,
    private pending: string[] | undefined,
  ) {}

  /**
   * Reads the first chunk before anything is sent, so that a failure to
   * read the list at all still gets the route's documented 500.
   */
  static async start(cursor: JsonCursor): Promise<ProjectListBody> {
    try {
      return new ProjectListBody(cursor, await cursor.next());
    } catch (error) {
      await cursor.close();
      throw error;
    }
  }

  async next(): Promise<string | undefined> {
    if (this.ended) return undefined;
    const projects = this.opened ? await this.cursor.next() : this.pending;
    this.pending = undefined;
    const head = this.opened ? ',' : OPEN;
    this.opened = true;
    if (projects === undefined) {
      this.ended = true;
      await this.cursor.close();
      return head === OPEN ? OPEN + CLOSE : CLOSE;
    }
    return head + projects.join(',');
  }

  close(): Promise<void> {
    return this.cursor.close();
  }
}
