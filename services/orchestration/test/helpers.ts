/**
 * Test helpers: a scripted upstream HTTP server for the `http` connector (counts
 * hits, fails on demand, blocks until released), workflow files in a temp
 * folder, and JSON requests.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type ModelServer, type RunningService, tempDir } from '@xv/platform/testing';
import { afterAll } from 'vitest';
import { stringify } from 'yaml';
import type { Tables } from '../src/db.js';

/** A running orchestration service, typed by its tables. */
export type RunningOrchestration = RunningService<unknown, Tables>;

export interface Upstream {
  url: string;
  /** `127.0.0.1:<port>`, for XV_WF_HTTP_ALLOWED_HOSTS. */
  host: string;
  /** Hits per path (query string excluded). */
  hits(path: string): number;
  /** When each hit of a path arrived (performance.now()). */
  times(path: string): number[];
  /** The next `count` requests to `path` answer `status`. */
  failNext(path: string, count: number, status?: number): void;
  /** Requests to `path` hang until `release(path)`. */
  block(path: string): void;
  release(path: string): void;
  close(): Promise<void>;
}

/**
 * Paths: anything answers `{ok:true, path, hit}` as JSON, unless told otherwise;
 * `/status/<code>` always answers that status; `/echo` answers the request body.
 */
export async function startUpstream(): Promise<Upstream> {
  const hitTimes = new Map<string, number[]>();
  const failures = new Map<string, { count: number; status: number }>();
  const blocked = new Map<string, (() => void)[] | null>();
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    let body = '';
    for await (const chunk of req) body += chunk;
    hitTimes.set(path, [...(hitTimes.get(path) ?? []), performance.now()]);
    const hit = hitTimes.get(path)!.length;
    const waiting = blocked.get(path);
    if (waiting) await new Promise<void>((resolve) => waiting.push(resolve));
    const failure = failures.get(path);
    const fixed = /^\/status\/(\d{3})$/.exec(path);
    let status = 200;
    if (fixed) status = Number(fixed[1]);
    else if (failure && failure.count > 0) {
      failure.count -= 1;
      status = failure.status;
    }
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        path === '/echo' ? { echo: body ? JSON.parse(body) : null } : { ok: status < 300, path, hit },
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const upstream: Upstream = {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    hits: (path) => hitTimes.get(path)?.length ?? 0,
    times: (path) => hitTimes.get(path) ?? [],
    failNext: (path, count, status = 503) => failures.set(path, { count, status }),
    block: (path) => blocked.set(path, []),
    release(path) {
      for (const resolve of blocked.get(path) ?? []) resolve();
      blocked.delete(path);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const path of blocked.keys()) upstream.release(path);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  afterAll(() => upstream.close());
  return upstream;
}

/** Writes each definition as `<name>.yaml` into a new temp folder; returns the folder. */
export function workflowFolder(definitions: Record<string, unknown>[]): string {
  const folder = tempDir('xv-workflows-');
  for (const definition of definitions) {
    writeFileSync(join(folder, `${(definition as { name: string }).name}.yaml`), stringify(definition));
  }
  return folder;
}

/** The settings that make the scripted `model` the service's default model, named `name`. */
export const modelEnv = (model: ModelServer, name = 'default-model') => ({
  MODEL_BASE_URL: model.baseUrl,
  MODEL_API_KEY: model.apiKey,
  MODEL_NAME: name,
});

/** A POST whose body is `text` as it stands, labelled JSON: for bodies that are not JSON at all. */
export const rawJsonInit = (text: string, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: text,
});

export const jsonInit = (body: unknown, headers: Record<string, string> = {}): RequestInit =>
  rawJsonInit(JSON.stringify(body), headers);

export async function expectError(response: Response, status: number, code: string) {
  const body = await response.json();
  if (response.status !== status || body.error !== code) {
    throw new Error(`expected ${status} ${code}, got ${response.status} ${JSON.stringify(body)}`);
  }
  if (typeof body.message !== 'string' || body.message.length === 0)
    throw new Error('error without a message');
  return body;
}

/**
 * Cloudflare Turnstile's `siteverify`, as the lead form's challenge calls it: a token passes when it starts with
 * `good-` and the secret is `turnstile-secret`. `env` turns Turnstile on against it; `verifications` are the
 * forms it received.
 */
export async function startTurnstileSiteverify() {
  const verifications: URLSearchParams[] = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const form = new URLSearchParams(body);
    verifications.push(form);
    const success = form.get('secret') === 'turnstile-secret' && form.get('response')?.startsWith('good-');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ success, 'error-codes': success ? [] : ['invalid-input-response'] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    verifications,
    env: {
      XV_LEAD_CHALLENGE: 'turnstile',
      XV_TURNSTILE_SITE_KEY: 'site-key',
      XV_TURNSTILE_SECRET_KEY: 'turnstile-secret',
      XV_TURNSTILE_VERIFY_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`,
    },
  };
}
