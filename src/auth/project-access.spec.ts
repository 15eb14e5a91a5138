import { AuthFailure } from '../failures/auth-failure.error';
import { ProjectAccess } from './project-access';

describe('ProjectAccess', () => {
  const open = ProjectAccess.of({ caller: undefined });
  const alice = ProjectAccess.of({ caller: { userId: 'alice', admin: false } });
  const admin = ProjectAccess.of({ caller: { userId: 'root', admin: true } });

  const forbidden = (act: () => unknown) => {
    let thrown: unknown;
    try {
      act();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AuthFailure);
    expect((thrown as AuthFailure).status).toBe(403);
  };

  it('without authentication, limits no read or change to an owner', () => {
    expect(open.readOwner()).toBeUndefined();
    expect(open.changeOwner()).toBeUndefined();
  });

  it('limits a caller to its own projects, to read and to change', () => {
    expect(alice.readOwner()).toBe('alice');
    expect(alice.changeOwner()).toBe('alice');
  });

  it("lets an admin read anyone's projects but change only its own", () => {
    expect(admin.readOwner()).toBeUndefined();
    expect(admin.changeOwner()).toBe('root');
  });

  it('lists the ?userId= named without authentication or for an admin', () => {
    expect(open.listedOwner('bob')).toBe('bob');
    expect(open.listedOwner(undefined)).toBeUndefined();
    expect(admin.listedOwner('bob')).toBe('bob');
    expect(admin.listedOwner(undefined)).toBeUndefined();
  });

  it("lists a caller's own projects, and refuses naming another user", () => {
    expect(alice.listedOwner(undefined)).toBe('alice');
    expect(alice.listedOwner('alice')).toBe('alice');
    forbidden(() => alice.listedOwner('bob'));
  });

  it('refuses a project made for or handed to another user than the caller', () => {
    expect(() => alice.assertOwnerMayBe('alice', 'create')).not.toThrow();
    expect(() => alice.assertOwnerMayBe(undefined, 'update')).not.toThrow();
    forbidden(() => alice.assertOwnerMayBe('bob', 'create'));
    // An admin reads anyone's, but makes and hands over only its own.
    forbidden(() => admin.assertOwnerMayBe('bob', 'create'));
    expect(() => open.assertOwnerMayBe('bob', 'create')).not.toThrow();
  });
});
