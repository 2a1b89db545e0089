/**
 * @module http/server
 * Serving an app over HTTP, and stopping it gracefully: stop accepting, let
 * in-flight requests (streams included) finish, then close what is left.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import { PlatformServerResponse } from './node-response.js';

export interface HttpServerHandle {
  port: number;
  /** Stops accepting connections and resolves once in-flight requests are done (or the grace period ends). */
  close(graceMs?: number): Promise<void>;
}

// biome-ignore lint/suspicious/noExplicitAny: any Hono app, whatever its env and routes.
export function listen(app: Hono<any, any, any>, port: number, hostname: string): Promise<HttpServerHandle> {
  return new Promise((resolve, reject) => {
    // The platform's response headers are merged in as the answer is written (`node-response.ts`).
    const serverOptions = { ServerResponse: PlatformServerResponse };
    const server = serve({ fetch: app.fetch, port, hostname, serverOptions }, (info: AddressInfo) => {
      resolve({
        port: info.port,
        close: (graceMs = 10_000) =>
          new Promise<void>((done) => {
            const force = setTimeout(() => {
              if ('closeAllConnections' in server) server.closeAllConnections();
            }, graceMs);
            force.unref();
            server.close(() => {
              clearTimeout(force);
              done();
            });
            if ('closeIdleConnections' in server) server.closeIdleConnections();
          }),
      });
    });
    server.once('error', reject);
  });
}
