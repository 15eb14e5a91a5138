import {
  Controller,
  Get,
  HttpStatus,
  ServiceUnavailableException,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  HealthCheckService,
  HealthIndicatorService,
  type HealthCheckResult,
} from '@nestjs/terminus';
import { Reply } from '../common/http/reply';
import { AssetBytes } from '../assets/asset-bytes/asset-bytes';
import { Database } from '../database/database.service';
import { ImageModelLifecycle } from '../logo/providers/image-model-lifecycle';
import { ShutdownState } from './shutdown-state';
import { WarmUp } from '../start/warm-up';

/** A database that does not answer within this is "not ready". */
const DATABASE_PING_TIMEOUT_MS = 2000;

/**
 * Kubernetes probes, outside /api (not part of the client API, so not in
 * the OpenAPI document). Both answer JSON: 200 with status "ok", or 503 with
 * status "error" and the failing check.
 */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly database: Database,
    private readonly shutdown: ShutdownState,
    private readonly assetBytes: AssetBytes,
    private readonly imageModels: ImageModelLifecycle,
    private readonly warmUp: WarmUp,
  ) {}

  /** Liveness: the process answers. Never depends on the database. */
  @Get('live')
  live() {
    return this.run([]);
  }

  /**
   * Readiness: the start-up warm-up has finished (start/warm-up.ts), the
   * database answers, the asset bucket (ASSET_STORE=s3) answers, and the
   * process is not shutting down. The image model's
   * lifecycle is told (imageModel) but never fails readiness: a model
   * about to shut down, or gone, is the operator's to replace, and
   * restarting the pod would not help.
   */
  @Get('ready')
  ready() {
    return this.run([
      () => {
        const check = this.indicators.check('warmUp');
        return this.warmUp.finished
          ? check.up()
          : check.down({ message: 'The service is warming up' });
      },
      () => {
        const check = this.indicators.check('shutdown');
        return this.shutdown.draining
          ? check.down({ message: 'The service is shutting down' })
          : check.up();
      },
      () => this.pingDatabase(),
      ...(this.assetBytes.kind === 's3' ? [() => this.checkAssetBucket()] : []),
      () => this.imageModelState(),
    ]);
  }

  /** Always up; `lifecycle` is ok, shutdown_scheduled, gone or unknown. */
  private imageModelState() {
    const model = this.imageModels.models[0];
    const state = this.imageModels.stateOf(model);
    const lifecycle = state.status === 'available' ? 'ok' : state.status;
    return this.indicators.check('imageModel').up({
      lifecycle,
      model,
      shutdownDate: state.shutdownDate,
    });
  }

  /** Bounded and cached for a few seconds by the store itself. */
  private async checkAssetBucket() {
    const check = this.indicators.check('assetStorage');
    try {
      await this.assetBytes.checkReachable();
      return check.up();
    } catch {
      // Never the SDK's message: it may name the endpoint.
      return check.down({ message: 'The asset bucket did not answer' });
    }
  }

  private async pingDatabase() {
    const check = this.indicators.check('database');
    try {
      await withTimeout(this.database.ping(), DATABASE_PING_TIMEOUT_MS);
      return check.up();
    } catch {
      // Never the driver's message: it may name a host or a file path.
      return check.down({ message: 'The database did not answer' });
    }
  }

  /** Terminus throws its 503; the probe answers it as its own body. */
  private async run(
    checks: Parameters<HealthCheckService['check']>[0],
  ): Promise<HealthCheckResult | Reply> {
    try {
      return await this.health.check(checks);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      return new Reply(
        HttpStatus.SERVICE_UNAVAILABLE,
        {},
        JSON.stringify(error.getResponse()),
      );
    }
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
