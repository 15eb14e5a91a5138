import { MetricsService } from './metrics.service';

describe('MetricsService', () => {
  it('exports what requests observe, and never what the start-up warm-up observes', async () => {
    const metrics = new MetricsService();
    const labels = {
      method: 'GET',
      route: '/api/projects/:id',
      status_code: 200,
    };
    metrics.warmUpRequestDuration.observe(labels, 0.002);
    expect(await metrics.registry.metrics()).not.toContain(
      'route="/api/projects/:id"',
    );
    // The warm-up's histogram still counts: its code ran.
    const warmed = await metrics.warmUpRequestDuration.get();
    expect(warmed.values.some((value) => value.value === 1)).toBe(true);

    metrics.httpRequestDuration.observe(labels, 0.002);
    expect(await metrics.registry.metrics()).toContain(
      'http_request_duration_seconds_count{method="GET",route="/api/projects/:id",status_code="200"} 1',
    );
  });
});
