/**
 * @module workflows/connectors/http
 * `http`: a request to a host on the allow list (`XV_WF_HTTP_ALLOWED_HOSTS`,
 * `host` for any port or `host:port`). Output: `{status, body}` (JSON parsed).
 */
import { z } from '@xv/platform';
import { defineConnector, StepError } from './connector.js';
import { callHttp } from './fetch.js';

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** True when the URL's host (and port) is on the list. */
export function isAllowedHost(url: URL, allowedHosts: readonly string[]): boolean {
  const host = url.hostname.toLowerCase();
  const port = url.port || DEFAULT_PORTS[url.protocol] || '';
  return allowedHosts.some((entry) => entry === host || entry === `${host}:${port}`);
}

export function httpConnector(allowedHosts: readonly string[]) {
  return defineConnector({
    name: 'http',
    description: 'An HTTP request to an allow-listed host; output {status, body}.',
    params: z.strictObject({
      url: z.url({ protocol: /^https?$/ }),
      method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('GET'),
      headers: z.record(z.string(), z.string()).optional(),
      body: z.unknown().optional(),
    }),
    async run(params, { signal }) {
      const url = new URL(params.url);
      if (!isAllowedHost(url, allowedHosts)) {
        throw new StepError(`The host ${url.host} is not in XV_WF_HTTP_ALLOWED_HOSTS.`, false);
      }
      return callHttp(`The host ${url.host}`, url, {
        method: params.method,
        ...(params.headers ? { headers: params.headers } : {}),
        body: params.body,
        signal,
      });
    },
  });
}
