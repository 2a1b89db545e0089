/**
 * @module logger
 * Structured JSON logs (pino). Secrets are redacted by path, wherever they appear.
 */
import { type Logger, pino } from 'pino';

export type { Logger };

export const REDACTED_PATHS = [
  'password',
  'token',
  'secret',
  'code',
  'authorization',
  'cookie',
  '*.password',
  '*.token',
  '*.secret',
  '*.authorization',
  '*.cookie',
  '*["set-cookie"]',
  '*.apiKey',
  '*.privateKey',
  'headers.authorization',
  'headers.cookie',
];

export function createLogger(service: string, level = 'info', destination?: pino.DestinationStream): Logger {
  return pino(
    {
      name: service,
      level,
      base: { service },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
