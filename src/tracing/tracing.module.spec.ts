import type { INestApplication, NestInterceptor } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { ApplicationConfig } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { processConfig } from '../process/process.config';
import { HandlerSpanInterceptor } from './handler-span.interceptor';
import { TracingModule } from './tracing.module';

/** The global interceptors of an app built with tracing on or off. */
async function globalInterceptors(
  tracing: boolean,
): Promise<NestInterceptor[]> {
  const moduleRef = await Test.createTestingModule({
    imports: [
      ConfigModule.forRoot({
        isGlobal: true,
        ignoreEnvFile: true,
        load: [processConfig],
      }),
      TracingModule.register(tracing),
    ],
  }).compile();
  const app: INestApplication = moduleRef.createNestApplication({
    logger: false,
  });
  await app.init();
  try {
    return app.get(ApplicationConfig).getGlobalInterceptors();
  } finally {
    await app.close();
  }
}

describe('TracingModule', () => {
  it('registers no interceptor with tracing off: requests run none of its code', async () => {
    expect(await globalInterceptors(false)).toEqual([]);
  });

  it('registers the handler-span interceptor with tracing on', async () => {
    const interceptors = await globalInterceptors(true);
    expect(interceptors).toHaveLength(1);
    expect(interceptors[0]).toBeInstanceOf(HandlerSpanInterceptor);
  });
});
