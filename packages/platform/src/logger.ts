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

/**
 * A logger for lines whose fields are fixed and never secret (the request line:
 * request id, method, path, status, milliseconds), writing exactly what `logger`
 * writes. Redaction runs on every line whatever its fields, and costs ~10 µs a
 * line (pino 10, 16 paths: 12.6 µs a line against 2.1 µs without, measured here);
 * on these fields it never finds anything. Every other line keeps it.
 */
export function withoutRedaction(logger: Logger): Logger {
  return logger.child({}, { redact: { paths: [] } });
}

/**
 * `logger.child(bindings)`, made when first used: most requests log nothing but
 * their request line, and a child costs ~2 µs to make.
 */
export function lazyChild(logger: Logger, bindings: pino.Bindings): Logger {
  return new Proxy(logger, new LazyChild(logger, bindings));
}

/** A stand-in with the child's whole interface: each use goes to the child, methods bound to it. */
class LazyChild implements ProxyHandler<Logger> {
  #child: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: pino.Bindings,
  ) {}

  private child(): Logger {
    this.#child ??= this.parent.child(this.bindings);
    return this.#child;
  }

  get(_: Logger, property: string | symbol) {
    const child = this.child();
    const value: unknown = Reflect.get(child, property, child);
    return typeof value === 'function' ? value.bind(child) : value;
  }

  set(_: Logger, property: string | symbol, value: unknown) {
    return Reflect.set(this.child(), property, value);
  }

  has(_: Logger, property: string | symbol) {
    return Reflect.has(this.child(), property);
  }
}
