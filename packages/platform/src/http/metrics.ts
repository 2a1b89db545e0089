/**
 * @module http/metrics
 * Prometheus metrics per app: a request counter and a latency histogram, both
 * labelled by the matched route pattern (never the raw path, which would let
 * callers mint unbounded label values).
 */
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { Counter, Histogram, Registry } from 'prom-client';

export function createHttpMetrics(service: string) {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency, by method and route.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const record: MiddlewareHandler = async (c, next) => {
    const started = performance.now();
    await next();
    const route = respondingRoute(c);
    const seconds = (performance.now() - started) / 1000;
    requests.inc({ method: c.req.method, route, status: String(c.res.status) });
    latency.observe({ method: c.req.method, route }, seconds);
  };
  return { registry, record };
}

/** The pattern of the route that answered, or `unmatched` when only middleware ran. */
function respondingRoute(c: Parameters<MiddlewareHandler>[0]): string {
  const route = matchedRoutes(c)[c.req.routeIndex];
  if (!route || (route.method === 'ALL' && (route.path === '*' || route.path === '/*'))) return 'unmatched';
  return route.path;
}
