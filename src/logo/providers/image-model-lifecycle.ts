import { HttpService } from '@nestjs/axios';
import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { Gauge } from 'prom-client';
import { isAxiosError } from 'axios';
import { firstValueFrom } from 'rxjs';
import { MetricsService } from '../../metrics/metrics.service';
import { logoConfig, type ImageApiConfig } from '../logo.config';
import { capabilitiesOf, isRetired } from './model-capabilities';
import { modelsUrlOf } from './models-url';
import {
  listedModels,
  statusInList,
  type ModelLifecycleState,
} from './model-status';

/** The model list is small; a provider slower than this is skipped. */
export const LIST_TIMEOUT_MS = 10_000;

/**
 * OpenAI's list is some 20 KB; reading stops past this (decompressed) size,
 * so a broken or hostile provider cannot fill the heap at start-up.
 */
export const MAX_MODEL_LIST_BYTES = 1024 * 1024;

/**
 * Reads the provider's model list (GET /v1/models, OpenAI only) at
 * start-up and every IMAGE_MODELS_CHECK_INTERVAL_S, and tells of a
 * configured model (IMAGE_MODEL, IMAGE_FALLBACK_MODELS) that is gone or
 * has a shutdown date: one log line per check, the image_model_* gauges,
 * and the imageModel entry of /health/ready. Never fatal: a list that
 * cannot be read leaves the last known state.
 */
@Injectable()
export class ImageModelLifecycle
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly logger = new Logger(ImageModelLifecycle.name);
  private readonly settings: ImageApiConfig;
  private readonly modelsUrl: string | undefined;
  private readonly known = new Map<string, ModelLifecycleState>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly http: HttpService,
    metrics: MetricsService,
    @Inject(logoConfig.KEY) config: ConfigType<typeof logoConfig>,
  ) {
    this.settings = config.imageApi;
    this.modelsUrl = modelsUrlOf(this.settings.provider, this.settings.url);
    const states = () => this.models.map((model) => this.stateOf(model));
    const registers = [metrics.registry];
    new Gauge({
      name: 'image_model_available',
      help: 'Whether a configured image model is available (1), gone (0); absent while unknown',
      labelNames: ['model'] as const,
      registers,
      collect() {
        this.reset();
        for (const state of states()) {
          if (state.status === 'unknown') continue;
          this.set({ model: state.model }, state.status === 'gone' ? 0 : 1);
        }
      },
    });
    new Gauge({
      name: 'image_model_shutdown_timestamp_seconds',
      help: 'The announced shutdown of a configured image model (Unix time)',
      labelNames: ['model'] as const,
      registers,
      collect() {
        this.reset();
        for (const state of states()) {
          if (state.shutdownDate === null) continue;
          const at = Date.parse(`${state.shutdownDate}T00:00:00Z`) / 1000;
          if (Number.isFinite(at)) this.set({ model: state.model }, at);
        }
      },
    });
  }

  /** IMAGE_MODEL, then IMAGE_FALLBACK_MODELS. */
  get models(): string[] {
    return [this.settings.model, ...this.settings.fallbackModels];
  }

  /**
   * The provider's word when its list was read; before that (or for a
   * provider without one) the registry's shutdown date, else unknown.
   */
  stateOf(model: string): ModelLifecycleState {
    const listed = this.known.get(model);
    if (listed) return listed;
    const { shutdownDate } = capabilitiesOf(model, this.settings.provider);
    if (shutdownDate === undefined) {
      return { model, status: 'unknown', shutdownDate: null };
    }
    return {
      model,
      status: isRetired({ shutdownDate }) ? 'gone' : 'shutdown_scheduled',
      shutdownDate,
    };
  }

  /** A call was answered "model not found": the provider's word too. */
  markGone(model: string): void {
    if (this.known.get(model)?.status === 'gone') return;
    this.known.set(model, { model, status: 'gone', shutdownDate: null });
    this.logger.warn(
      `Image model ${model} is not offered by the provider any more; its calls are refused`,
    );
  }

  onApplicationBootstrap(): void {
    const interval = this.settings.modelsCheckIntervalSeconds;
    if (!this.modelsUrl || !this.settings.key || interval === 0) return;
    void this.check();
    this.timer = setInterval(() => void this.check(), interval * 1000);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** One read of the list; resolves when it is done (or failed). */
  async check(today = new Date().toISOString().slice(0, 10)): Promise<void> {
    const { key } = this.settings;
    if (!this.modelsUrl || !key) return;
    let list;
    try {
      const response = await firstValueFrom(
        this.http.get<unknown>(this.modelsUrl, {
          headers: { Authorization: `Bearer ${key}` },
          timeout: LIST_TIMEOUT_MS,
          signal: AbortSignal.timeout(LIST_TIMEOUT_MS),
          maxRedirects: 0,
          validateStatus: () => true,
          // axios stops reading (and drops what it read) once the answer
          // grows past this, announced or not.
          maxContentLength: MAX_MODEL_LIST_BYTES,
        }),
      );
      list = response.status === 200 ? listedModels(response.data) : undefined;
      if (!list) {
        this.logger.warn(
          `The image model list could not be read (status ${response.status}); the configured models' lifecycle is not checked this time`,
        );
        return;
      }
    } catch (error) {
      // Never the socket error: it names the provider's address.
      this.logger.warn(
        isOversized(error)
          ? `The image model list was larger than ${MAX_MODEL_LIST_BYTES} bytes and was not read; the configured models' lifecycle is not checked this time`
          : "The image model list did not answer; the configured models' lifecycle is not checked this time",
      );
      return;
    }
    for (const model of this.models) {
      const state = statusInList(model, list, today);
      this.known.set(model, state);
      if (state.status === 'gone') {
        this.logger.warn(
          `Image model ${model} is not offered by the provider any more; its calls are refused`,
        );
      } else if (state.status === 'shutdown_scheduled') {
        this.logger.warn(
          `Image model ${model} shuts down on ${state.shutdownDate}; choose another IMAGE_MODEL before then`,
        );
      }
    }
  }
}

/** axios refused an answer past maxContentLength. */
function isOversized(error: unknown): boolean {
  return isAxiosError(error) && error.message.includes('maxContentLength');
}
