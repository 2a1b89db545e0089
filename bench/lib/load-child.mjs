/**
 * The load generator's child process when requests differ (autocannon's command
 * line sends one fixed request): it reads the options of `runLoad` from the JSON
 * file named by its argument, drives autocannon's programmatic API and prints one
 * JSON line shaped like autocannon's own result (the fields `runLoad` reads:
 * `requests.total`, `requests.average`, `latency`, `errors`, `non2xx`), with `unexpected`.
 *
 * - For `durationSeconds` (or `amount` requests), request i goes to `paths[i % n]`,
 *   carries `headerSets[i % n]` and `bodies[i % n]`: one counter over all
 *   connections, so no two connections send the same body at the same moment.
 * - With `once`, each body goes out exactly once: autocannon sends a run's whole
 *   request list on each of its connections, so the bodies are dealt over one
 *   single-connection run per connection, run side by side, and their results
 *   merged with `autocannon.aggregateResult`. Every request is built before the
 *   clock starts.
 * - With `expect`, each 2xx answer must contain that text; those that do not are
 *   counted as `unexpected`.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const options = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const paths = options.paths ?? [];
const headerSets = options.headerSets ?? [];
const bodies = options.bodies ?? [];
const expected = options.expect;

let unexpected = 0;
const checked = expected === undefined ? {} : { onResponse: countUnexpected };
function countUnexpected(status, body) {
  // Other statuses are autocannon's non2xx.
  if (status >= 200 && status < 300 && !body.includes(expected)) unexpected++;
}

/** Only the options given: an `undefined` would override autocannon's default. */
const given = (fields) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
const common = given({
  url: options.url,
  method: options.method,
  headers: options.headers,
  body: options.body,
});

const report = options.once ? await eachBodyOnce() : await roundRobin();
process.stdout.write(`${JSON.stringify({ ...report, unexpected })}\n`);

async function roundRobin() {
  /** The full header object of each set, built once: the generator shares the machine with the server. */
  const mergedHeaders = [];
  let next = 0;
  const varies = paths.length > 0 || headerSets.length > 0 || bodies.length > 0;
  const setup = {
    setupRequest(request) {
      const index = next++;
      if (paths.length > 0) request.path = paths[index % paths.length];
      if (headerSets.length > 0) {
        const set = index % headerSets.length;
        mergedHeaders[set] ??= { ...request.headers, ...headerSets[set] };
        request.headers = mergedHeaders[set];
      }
      if (bodies.length > 0) request.body = bodies[index % bodies.length];
      return request;
    },
  };
  return autocannon({
    ...common,
    ...given({ connections: options.connections, duration: options.durationSeconds, amount: options.amount }),
    // A request without setupRequest is built once, not once per request.
    requests: [{ ...checked, ...(varies ? setup : {}) }],
  });
}

async function eachBodyOnce() {
  const shares = Array.from({ length: options.connections }, (_, i) =>
    bodies.filter((_, j) => j % options.connections === i),
  ).filter((share) => share.length > 0);
  const started = performance.now();
  const results = await Promise.all(
    shares.map((share) =>
      autocannon({
        ...common,
        connections: 1,
        amount: share.length,
        skipAggregateResult: true,
        requests: share.map((body) => ({ body, ...checked })),
      }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  // Per-second samples of side-by-side runs do not add up, so the rate is the total over the wall clock.
  const merged = autocannon.aggregateResult(results, { url: options.url, connections: shares.length });
  return { ...merged, requests: { total: merged.requests.total, average: merged.requests.total / seconds } };
}
