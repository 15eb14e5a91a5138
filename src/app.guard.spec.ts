import type { ExecutionContext } from '@nestjs/common';
import { AppGuard } from './app.guard';
import type { AuthGuard } from './auth/auth.guard';
import type { JsonBodyGuard } from './platform/body/json-body.guard';
import type { RouteContextGuard } from './platform/route-context.guard';

describe('AppGuard', () => {
  const context = {} as ExecutionContext;

  function guards(refusing?: 'routeContext' | 'auth' | 'body') {
    const ran: string[] = [];
    const guard = (name: 'routeContext' | 'auth' | 'body') => ({
      canActivate: () => {
        ran.push(name);
        if (name === refusing) throw new Error(`${name} refused`);
        return name === 'routeContext' ? true : Promise.resolve(true);
      },
    });
    const app = new AppGuard(
      guard('routeContext') as unknown as RouteContextGuard,
      guard('auth') as unknown as AuthGuard,
      guard('body') as unknown as JsonBodyGuard,
    );
    return { app, ran };
  }

  it('runs the route context, then authentication, then the body', async () => {
    const { app, ran } = guards();
    await expect(app.canActivate(context)).resolves.toBe(true);
    expect(ran).toEqual(['routeContext', 'auth', 'body']);
  });

  it('reads no body for a refused caller', async () => {
    const { app, ran } = guards('auth');
    await expect(app.canActivate(context)).rejects.toThrow('auth refused');
    expect(ran).toEqual(['routeContext', 'auth']);
  });
});
