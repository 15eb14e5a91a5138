import type { CallContext, Caller } from '../common/call-context';
import { MeService } from './me.service';

const contextOf = (caller: Caller | undefined): CallContext =>
  ({ caller }) as unknown as CallContext;

describe('MeService', () => {
  const me = new MeService();

  it('answers the verified caller: user id, name, email, roles and whether they are an admin', () => {
    expect(
      me.whoAmI(
        contextOf({
          userId: 'alice',
          admin: true,
          name: 'Alice',
          email: 'alice@example.com',
          roles: ['boss'],
        }),
      ),
    ).toEqual({
      authenticated: true,
      userId: 'alice',
      name: 'Alice',
      email: 'alice@example.com',
      roles: ['boss'],
      admin: true,
    });
  });

  it('leaves out a name and email the token did not carry, and answers [] for a caller without roles', () => {
    expect(me.whoAmI(contextOf({ userId: 'bob', admin: false }))).toEqual({
      authenticated: true,
      userId: 'bob',
      roles: [],
      admin: false,
    });
  });

  it('answers an anonymous caller without authentication: no user id, no roles', () => {
    expect(me.whoAmI(contextOf(undefined))).toEqual({
      authenticated: false,
      userId: null,
      roles: [],
      admin: false,
    });
  });
});
