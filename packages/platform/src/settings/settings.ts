/**
 * @module settings
 * Typed settings read from the environment. Each setting names its environment
 * variable once; a value that fails its schema stops start-up with a message that
 * names the variable, never the value (it may be a secret).
 */
import { z } from 'zod';

export interface Setting<S extends z.ZodType = z.ZodType> {
  env: string;
  schema: S;
  /** Secret values are never echoed, not even in error messages. */
  secret?: boolean;
}

export type SettingsSpec = Record<string, Setting>;
export type Settings<T extends SettingsSpec> = { readonly [K in keyof T]: z.output<T[K]['schema']> };

export function setting<S extends z.ZodType>(
  env: string,
  schema: S,
  options: { secret?: boolean } = {},
): Setting<S> {
  return { env, schema, ...options };
}

export class SettingsError extends Error {
  constructor(readonly problems: { env: string; message: string }[]) {
    super(`Invalid settings:\n${problems.map((p) => `  ${p.env}: ${p.message}`).join('\n')}`);
    this.name = 'SettingsError';
  }
}

type Env = Record<string, string | undefined>;

export function loadSettings<T extends SettingsSpec>(spec: T, env: Env = process.env): Settings<T> {
  const values: Record<string, unknown> = {};
  const problems: { env: string; message: string }[] = [];
  for (const [key, { env: name, schema }] of Object.entries(spec)) {
    const raw = env[name];
    const result = schema.safeParse(raw === '' ? undefined : raw);
    if (result.success) values[key] = result.data;
    else problems.push({ env: name, message: result.error.issues.map((i) => i.message).join('; ') });
  }
  if (problems.length > 0) throw new SettingsError(problems);
  return values as Settings<T>;
}

/* Reusable schemas for values that arrive as strings. */

export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

export const httpUrl = () =>
  z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).transform((u) => u.replace(/\/+$/, ''));

export const flag = (fallback = false) =>
  z
    .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'], {
      error: 'must be 1/0, true/false, yes/no or on/off',
    })
    .optional()
    .transform((v) => (v === undefined ? fallback : ['1', 'true', 'yes', 'on'].includes(v)));

export const seconds = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const databaseUrl = () =>
  z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave unset for the embedded SQLite database)')
    .optional();

export const hostname = () =>
  z
    .string()
    .regex(/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i, 'must be a bare host name such as example.com')
    .transform((h) => h.toLowerCase());
