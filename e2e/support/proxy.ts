/**
 * @module e2e/support/proxy
 * A small round-robin HTTP load balancer for tests, standing where a production
 * balancer stands: in front of every instance of one service, on the address that
 * service's `XV_<KEY>_URL` names. It streams request and response bodies through
 * as they come (streamed chat answers arrive piece by piece), passes headers on
 * unchanged (every `Set-Cookie` included), and sets `X-Forwarded-For` to the
 * address it saw, replacing whatever the client sent, so a client cannot pick the
 * address rate limits count it under. A client that hangs up is hung up on
 * upstream too.
 *
 * Two test conveniences a real balancer does not have: the request header
 * `X-Proxy-Backend: <index>` sends a request to one chosen instance (it is not
 * forwarded), and every answer says which instance served it in `X-Proxy-Backend`.
 *
 * ```ts
 * const proxy = await startProxy();          // listen first: its URL goes into the services' settings
 * proxy.setBackends(platform.urls('identity'));
 * await fetch(`${proxy.url}/api/session`, { headers: { 'x-proxy-backend': '1' } });
 * proxy.served                               // requests per instance
 * ```
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request,
  type Server,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export const BACKEND_HEADER = 'x-proxy-backend';

/** Headers that describe one connection, never forwarded (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

export interface RoundRobinProxy {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** The instances to balance over, in order (`X-Proxy-Backend` indexes this list). */
  setBackends(urls: string[]): void;
  /** Requests each instance was sent, by index. */
  served: number[];
  close(): Promise<void>;
}

export async function startProxy(options: { backends?: string[] } = {}): Promise<RoundRobinProxy> {
  let backends: URL[] = [];
  let next = 0;

  const server: Server = createServer((req, res) => {
    const pinned = pinnedBackend(req.headers[BACKEND_HEADER], backends.length);
    if (backends.length === 0 || pinned === null) {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: false, error: 'bad_gateway', message: 'No such backend.' }));
      req.resume();
      return;
    }
    const index = pinned ?? next++ % backends.length;
    const target = backends[index]!;
    proxy.served[index] = (proxy.served[index] ?? 0) + 1;

    const upstream = request(
      {
        hostname: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: forwardedHeaders(req),
      },
      (answer) => {
        const headers = withoutHopByHop(answer.headers);
        headers[BACKEND_HEADER] = String(index);
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers);
        answer.pipe(res);
        answer.once('error', () => res.destroy());
      },
    );
    upstream.once('error', () => {
      if (res.headersSent) return res.destroy();
      res.writeHead(502, { 'content-type': 'application/json', [BACKEND_HEADER]: String(index) });
      res.end(JSON.stringify({ ok: false, error: 'bad_gateway', message: 'The instance did not answer.' }));
    });
    // The client went away before the answer was complete: so does the request upstream.
    res.once('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const proxy: RoundRobinProxy = {
    url: `http://127.0.0.1:${port}`,
    port,
    served: [],
    setBackends(urls) {
      backends = urls.map((u) => new URL(u));
      proxy.served = urls.map(() => 0);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  proxy.setBackends(options.backends ?? []);
  return proxy;
}

/** The pinned instance's index, undefined when none is asked for, null when it does not exist. */
function pinnedBackend(value: string | string[] | undefined, count: number): number | null | undefined {
  if (value === undefined) return undefined;
  const index = Number(value);
  return Number.isInteger(index) && index >= 0 && index < count ? index : null;
}

function forwardedHeaders(req: IncomingMessage): IncomingHttpHeaders {
  const headers = withoutHopByHop(req.headers);
  delete headers[BACKEND_HEADER];
  headers['x-forwarded-for'] = req.socket.remoteAddress ?? 'unknown';
  headers['x-forwarded-proto'] = 'http';
  if (req.headers.host) headers['x-forwarded-host'] = req.headers.host;
  return headers;
}

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase()),
  );
  const kept: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!HOP_BY_HOP.has(name) && !named.has(name)) kept[name] = value;
  }
  return kept;
}
