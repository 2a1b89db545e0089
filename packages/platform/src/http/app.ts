/**
 * @module http/app
 * The Hono app every service is built on. It gives each request an id, a log
 * line, metrics, security headers and a CSP (`response-headers.ts`, `csp.ts`),
 * a body size limit and CSRF protection; turns
 * every failure into the platform's JSON error format; and serves `/healthz`,
 * `/readyz`, `/metrics`, `/openapi.json` and `/docs`.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { register as globalRegistry } from 'prom-client';
import type { ZodError } from 'zod';
import { type AnyDatabase, ping } from '../db/database.js';
import { AppError, isErrorStatus, platformErrors } from '../errors.js';
import { type Logger, lazyChild, withoutRedaction } from '../logger.js';
import type { ServiceName } from '../services.js';
import type { PlatformSettings } from '../settings/platform.js';
import { type CspVariables, cspNonce } from './csp.js';
import { csrfProtection, sameSiteOnly } from './csrf.js';
import { docsPageOf } from './docs-page.js';
import { createHttpMetrics } from './metrics.js';
import { type ResponseHeaders, requestHeader } from './node-response.js';
import { errorBody } from './openapi.js';
import { completeDocument } from './openapi-document.js';
import { serviceOrigins, sharedDomainSources } from './origins.js';
import { languageSwitch, themeSwitch } from './preferences.js';
import { platformResponseHeaders } from './response-headers.js';

export interface AppVariables extends CspVariables {
  requestId: string;
  logger: Logger;
  /** Set by a route that is called all the time by machines (a long-poll): its log line goes to debug. */
  quietLog: boolean;
  /** The headers middleware add to the answer after the handler (`node-response.ts`). */
  responseHeaders: ResponseHeaders;
}
export type AppEnv = { Variables: AppVariables };
export type App = OpenAPIHono<AppEnv>;

export interface CreateAppOptions {
  service: ServiceName;
  title: string;
  version?: string;
  description?: string;
  settings: PlatformSettings;
  database: AnyDatabase;
  logger: Logger;
}

const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

export function createApp(options: CreateAppOptions) {
  const { service, settings, database, logger } = options;
  const app: App = new OpenAPIHono<AppEnv>({ defaultHook: rejectInvalidInput });
  const metrics = createHttpMetrics(service);
  const ownOrigin = new URL(settings.services[service].url).origin;

  // Outermost: the request id is known to everything below, and the answer's headers are added last.
  app.use(
    platformResponseHeaders({
      // Form posts may redirect to a sibling site (login → the page that asked for it).
      contentSecurityPolicy: { formAction: sharedDomainSources(settings.sharedDomain) },
    }),
  );
  const requestLines = withoutRedaction(logger);
  app.use(async (c, next) => {
    const reqId = c.get('requestId');
    c.set('logger', lazyChild(logger, { reqId }));
    const started = performance.now();
    await next();
    // The fields (and their order) a child logger with `reqId` would write.
    const line = {
      reqId,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: +(performance.now() - started).toFixed(2),
    };
    // Probes arrive every few seconds from load balancers and the launcher: keep them out of the info log.
    if (PROBE_PATHS.has(c.req.path) || c.get('quietLog')) requestLines.debug(line, 'request');
    else requestLines.info(line, 'request');
  });
  app.use(metrics.record);
  app.use(
    limitBody({
      maxSize: settings.bodyLimitBytes,
      onError: () => {
        const tooLarge = platformErrors.payload_too_large(
          `The request body is larger than ${settings.bodyLimitBytes} bytes.`,
        );
        // The rest of the body is never read, and the server drops such a connection
        // shortly after answering: tell the client not to send its next request on it.
        throw new AppError(tooLarge.status, tooLarge.code, tooLarge.message, {}, { Connection: 'close' });
      },
    }),
  );
  app.use(closeAfterUnreadBody);
  app.use(
    csrfProtection({
      sharedDomain: settings.sharedDomain,
      ownOrigin,
      allowedOrigins: serviceOrigins(settings.services),
    }),
  );

  app.get('/healthz', (c) => c.json({ ok: true, service }));
  app.get('/readyz', async (c) =>
    (await ping(database))
      ? c.json({ ok: true, service })
      : c.json({ ok: false, error: 'not_ready', message: 'The database does not answer.' }, 503),
  );
  app.get('/metrics', async (c) => {
    // The app's HTTP metrics, then the process metrics a running service registers globally.
    c.header('Content-Type', metrics.registry.contentType);
    return c.body(`${await metrics.registry.metrics()}\n${await globalRegistry.metrics()}`);
  });
  const documentConfig = {
    openapi: '3.1.0',
    info: {
      title: options.title,
      version: options.version ?? '0.1.0',
      description: options.description ?? '',
    },
    servers: [{ url: settings.services[service].url }],
  };
  // Built on first use, once every route is registered; routes never change afterwards.
  let document: ReturnType<typeof app.getOpenAPI31Document> | undefined;
  const openApiDocument = () => (document ??= completeDocument(app.getOpenAPI31Document(documentConfig)));
  app.openAPIRegistry.register('Error', errorBody);
  app.get('/openapi.json', (c) => c.json(openApiDocument()));
  app.get('/lang', languageSwitch(settings.sharedDomain));
  // Another site could otherwise flip a visitor's theme (a nuisance, not a breach): same-site only.
  app.post(
    '/theme',
    sameSiteOnly({
      sharedDomain: settings.sharedDomain,
      ownOrigin,
      allowedOrigins: serviceOrigins(settings.services),
    }),
    themeSwitch(settings.sharedDomain),
  );
  app.get('/docs', (c) => c.html(docsPageOf(app, c, openApiDocument(), cspNonce(c))));

  app.notFound((c) => errorResponse(platformErrors.not_found(), c));
  app.onError((error, c) => errorResponse(error, c));

  return app;
}

/**
 * Hono's `bodyLimit`, deciding from the headers alone when they suffice. It reads
 * `c.req.raw.body` first, which makes the Node adapter build a whole web Request
 * and body stream for every request, GETs included: a third of the platform's CPU
 * time per request. A body of undeclared length (chunked) is still counted as it
 * is read, and an oversized one is refused by Hono's check, as before.
 */
function limitBody(options: Parameters<typeof bodyLimit>[0]): MiddlewareHandler {
  const limit = bodyLimit(options);
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const length = requestHeader(c, 'content-length');
    if (length === undefined || requestHeader(c, 'transfer-encoding') !== undefined) return limit(c, next);
    return Number.parseInt(length, 10) > options.maxSize ? limit(c, next) : next();
  };
}

/**
 * An answer given without reading the request body (a 401 before the body, a 413)
 * says `Connection: close`: the server discards such a body and drops the socket
 * when it is large or slow, and a keep-alive client would lose the next request it
 * sends on that socket.
 */
const closeAfterUnreadBody: MiddlewareHandler = async (c, next) => {
  await next();
  const length = requestHeader(c, 'content-length');
  const hasBody =
    (length !== undefined && length !== '0') || requestHeader(c, 'transfer-encoding') !== undefined;
  if (hasBody && !c.req.raw.bodyUsed) c.res.headers.set('Connection', 'close');
};

/**
 * PostgreSQL refuses NUL in text (22021) and `\u0000` in jsonb (22P05), which SQLite
 * stores: such a statement fails before anything is written, and the input is at fault.
 */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);
function isUnstorableText(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('severity' in error)) return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && UNSTORABLE_TEXT.has(code);
}

function rejectInvalidInput(result: { success: boolean; error?: ZodError; target: string }) {
  if (result.success || !result.error) return;
  const issues = result.error.issues.map((issue) => ({
    path: [result.target, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  const first = issues[0];
  throw platformErrors.invalid_request(first ? `${first.path}: ${first.message}` : undefined, { issues });
}

/** Maps any thrown value to the JSON error format; unexpected errors are logged and become a bare 500. */
export function errorResponse(error: unknown, c: Context<AppEnv>) {
  const appError = toAppError(error);
  if (appError.status >= 500) {
    (c.get('logger') ?? console).error({ err: error }, 'request failed');
  }
  for (const [name, value] of Object.entries(appError.headers)) c.header(name, value);
  return c.json(appError.toJSON(), appError.status);
}

function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof HTTPException) {
    if (error.status === 400 && error.message.startsWith('Malformed JSON'))
      return platformErrors.invalid_json();
    if (error.status === 400) return platformErrors.invalid_request(error.message || undefined);
    if (error.status === 413) return platformErrors.payload_too_large();
    if (error.status === 415) return platformErrors.unsupported_media_type();
    if (error.status === 401) return platformErrors.unauthenticated();
    if (error.status === 403) return platformErrors.forbidden();
    if (error.status === 404) return platformErrors.not_found();
    if (error.status === 405) return platformErrors.method_not_allowed();
    if (error.status < 500 && isErrorStatus(error.status))
      return new AppError(error.status, 'bad_request', error.message || 'Bad request.');
  }
  if (error instanceof URIError)
    return platformErrors.invalid_request('The address contains malformed escapes.');
  if (isUnstorableText(error))
    return platformErrors.invalid_request('The request contains a character that cannot be stored (NUL).');
  return platformErrors.internal_error();
}
