/**
 * The load generator's child process when every request should differ: it reads
 * `{ url, connections, durationSeconds, method, headers, body, paths, headerSets }`
 * from the JSON file named by its argument and has autocannon send request i with
 * `paths[i % paths.length]` and `headerSets[i % headerSets.length]` (e.g. one
 * session cookie out of 100,000), then prints autocannon's result as one JSON line.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const options = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const paths = options.paths ?? [];
const headerSets = options.headerSets ?? [];
/** The full header object of each set, built once: the generator shares the machine with the server. */
const mergedHeaders = [];
let next = 0;

const result = await autocannon({
  url: options.url,
  connections: options.connections,
  duration: options.durationSeconds,
  method: options.method,
  headers: options.headers,
  body: options.body,
  requests: [
    {
      setupRequest(request) {
        const index = next++;
        if (paths.length > 0) request.path = paths[index % paths.length];
        if (headerSets.length > 0) {
          const set = index % headerSets.length;
          mergedHeaders[set] ??= { ...request.headers, ...headerSets[set] };
          request.headers = mergedHeaders[set];
        }
        return request;
      },
    },
  ],
});
process.stdout.write(`${JSON.stringify(result)}\n`);
