import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Application } from 'express';
import type { ConfigType } from '@nestjs/config';
import { httpConfig, type TrustProxySetting } from './http.config';

/**
 * Sets Express's 'trust proxy' from TRUST_PROXY. Off by default: then
 * `request.ip` is the socket's peer and an X-Forwarded-For header, which any
 * client can write, is ignored. A module rather than main.ts, so an app built
 * from AppModule alone identifies clients exactly as production does.
 */
@Module({})
export class TrustProxyModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(httpConfig.KEY)
    private readonly config: ConfigType<typeof httpConfig>,
  ) {}

  onModuleInit(): void {
    this.adapterHost.httpAdapter
      .getInstance<Application>()
      .set('trust proxy', expressSetting(this.config.trustProxy));
  }
}

/**
 * TRUST_PROXY=true trusts the nearest proxy only (one hop): trusting every
 * hop would make the leftmost X-Forwarded-For entry the client, and that one
 * is whatever the client wrote. Behind several proxies, a hop count or their
 * addresses say how far to believe the header.
 */
function expressSetting(
  setting: TrustProxySetting,
): Exclude<TrustProxySetting, true> {
  return setting === true ? 1 : setting;
}
