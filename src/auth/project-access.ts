import { AuthFailure } from '../failures/auth-failure.error';
import type { CallContext } from '../common/call-context';

/**
 * Whose projects a request may read and change: the one place that turns
 * a request's context into an owner for the projects' and assets'
 * queries. Without authentication anyone may act on any project (a list
 * shows the ?userId= it names). With AUTH_MODE=oidc a caller acts on its
 * own projects; an admin reads everyone's but changes only its own.
 * Another user's project is then answered as if it did not exist (the
 * query finds nothing for this owner); only what the caller names itself
 * (a list's ?userId=, a body's userId) is refused with 403.
 */
export class ProjectAccess {
  private constructor(private readonly context: Pick<CallContext, 'caller'>) {}

  static of(context: Pick<CallContext, 'caller'>): ProjectAccess {
    return new ProjectAccess(context);
  }

  /** The owner a read of one project (or its assets) is limited to. */
  readOwner(): string | undefined {
    const { caller } = this.context;
    return caller?.admin ? undefined : caller?.userId;
  }

  /** The owner a change of a project (or its assets) is limited to. */
  changeOwner(): string | undefined {
    return this.context.caller?.userId;
  }

  /** Whose projects a list shows; naming another user is refused. */
  listedOwner(userId: string | undefined): string | undefined {
    const { caller } = this.context;
    if (!caller || caller.admin) return userId;
    if (userId !== undefined && userId !== caller.userId) {
      throw AuthFailure.forbidden("list another user's projects");
    }
    return caller.userId;
  }

  /**
   * Refuses a project made for, or handed to, another user than the
   * caller; `action` says which, for the log.
   */
  assertOwnerMayBe(userId: string | undefined, action: string): void {
    const { caller } = this.context;
    if (caller && userId !== undefined && userId !== caller.userId) {
      throw AuthFailure.forbidden(action);
    }
  }
}
