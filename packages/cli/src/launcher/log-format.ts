/**
 * @module launcher/log-format
 * Turns a service's JSON log line into one short human line for the terminal:
 * `09:41:56 identity  GET /healthz 200 3ms`. Lines that are not JSON pass through.
 */

const LEVELS: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: '',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
const HIDDEN = new Set(['level', 'time', 'service', 'name', 'msg', 'pid', 'hostname', 'reqId']);

export function formatLogLine(name: string, line: string, width: number): string {
  const label = name.padEnd(width);
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line);
  } catch {
    return `${clock(new Date())} ${label} ${line}`;
  }
  if (typeof entry !== 'object' || entry === null) return `${clock(new Date())} ${label} ${line}`;
  const time = typeof entry.time === 'string' ? new Date(entry.time) : new Date();
  const level = LEVELS[Number(entry.level)] ?? '';
  if (entry.msg === 'request') {
    return `${clock(time)} ${label} ${entry.method} ${entry.path} ${entry.status} ${entry.ms}ms`;
  }
  const extras = Object.entries(entry)
    .filter(([key]) => !HIDDEN.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
  return `${clock(time)} ${label} ${level ? `${level} ` : ''}${entry.msg ?? ''}${extras ? ` ${extras}` : ''}`;
}

function clock(date: Date): string {
  return date.toTimeString().slice(0, 8);
}
