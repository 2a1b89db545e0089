/**
 * @module e2e/support/load-runner
 * A write-heavy load that is cut short by a kill: a few workers send writes one
 * after another, each with a timeout; once enough writes were acknowledged (or a
 * time bound passed) the target is killed while requests are still in flight.
 * What counts afterwards is what the clients were told: every acknowledged write
 * is kept, with the client's own record of it, for the checks after the restart.
 */

export interface LoadOptions<Ack> {
  /** Parallel clients. */
  workers: number;
  /** One write, numbered; resolves with the client's record of it when the service acknowledged it (2xx). */
  write: (n: number) => Promise<Ack>;
  /** Kill once this many writes were acknowledged… */
  killAfterAcks: number;
  /** …or after this long, whichever comes first. */
  killAfterMs: number;
  /** Kills the service (e.g. `platform.kill(s, 0, 'SIGKILL')`). */
  kill: () => Promise<unknown>;
}

export interface LoadResult<Ack> {
  acknowledged: Ack[];
  /** Writes that got no acknowledgement (cut by the kill, or refused). */
  unacknowledged: number;
  /** Writes that were on the wire when the kill came. */
  inFlightAtKill: number;
  errors: string[];
}

/** A `fetch` timeout for every request the loads send. */
export const LOAD_REQUEST_TIMEOUT_MS = 15_000;

export async function runUntilKilled<Ack>(options: LoadOptions<Ack>): Promise<LoadResult<Ack>> {
  const acknowledged: Ack[] = [];
  const errors: string[] = [];
  let unacknowledged = 0;
  let inFlight = 0;
  let next = 0;
  let killed = false;

  const worker = async () => {
    while (!killed) {
      const n = next++;
      inFlight++;
      try {
        acknowledged.push(await options.write(n));
      } catch (error) {
        unacknowledged++;
        // Failures after the kill are expected; before it they are worth reporting.
        if (!killed && errors.length < 5) errors.push(error instanceof Error ? error.message : String(error));
      } finally {
        inFlight--;
      }
    }
  };

  const workers = Array.from({ length: options.workers }, worker);
  const deadline = Date.now() + options.killAfterMs;
  while (acknowledged.length < options.killAfterAcks && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const inFlightAtKill = inFlight;
  killed = true;
  await options.kill();
  await Promise.all(workers);
  return { acknowledged, unacknowledged, inFlightAtKill, errors };
}

/** `fetch` with the load's timeout; throws unless the answer is a 2xx (or the `expected` status). */
export async function request(url: string, init: RequestInit = {}, expected?: number): Promise<Response> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(LOAD_REQUEST_TIMEOUT_MS) });
  const ok = expected === undefined ? response.ok : response.status === expected;
  if (!ok)
    throw new Error(`${init.method ?? 'GET'} ${url} answered ${response.status}: ${await response.text()}`);
  return response;
}

/** POSTs JSON and returns the parsed 2xx answer. */
export async function postJson<T>(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const response = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return (await response.json()) as T;
}

export async function getJson<T>(url: string, headers: Record<string, string> = {}): Promise<T> {
  return (await (await request(url, { headers })).json()) as T;
}
