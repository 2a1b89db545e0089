/**
 * @module commands/args
 * What the operator commands share: the environment they read, where they print,
 * and their `--name value` options and `--name` flags, each taken out of `args`
 * once read so that what is left are the positional words.
 */
import { UsageError } from '../launcher/start.js';

export type Env = Record<string, string | undefined>;
export type Out = (line: string) => void;

export function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(`--${name}`);
  if (index === -1) return undefined;
  const value = args[index + 1];
  if (!value || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
  args.splice(index, 2);
  return value;
}

export function flag(args: string[], name: string): boolean {
  const index = args.indexOf(`--${name}`);
  if (index === -1) return false;
  args.splice(index, 1);
  return true;
}
