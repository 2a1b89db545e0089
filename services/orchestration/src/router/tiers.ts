/**
 * @module router/tiers
 * The router's tiers: `fast`, `balanced` and `frontier`, each a display label and an
 * ordered list of model references (`<provider>:<model id>`). They come from
 * `XV_ROUTER_TIERS` (JSON) or the file `XV_ROUTER_TIERS_FILE` (JSON or YAML); a tier
 * left unset falls back to `MODEL_NAME` on the openai-compatible provider.
 */
import { readFileSync } from 'node:fs';
import { SettingsError, z } from '@xv/platform';
import { parse as parseYaml } from 'yaml';

export const TIER_NAMES = ['fast', 'balanced', 'frontier'] as const;
export type TierName = (typeof TIER_NAMES)[number];

const DEFAULT_LABELS: Record<TierName, string> = { fast: 'Fast', balanced: 'Balanced', frontier: 'Frontier' };

const modelReference = z
  .string()
  .regex(
    /^[a-z0-9-]+:\S.*$/,
    'each model must be "<provider>:<model id>", e.g. "openai-compatible:gpt-4o-mini"',
  );

const tierSpec = z.strictObject({
  label: z.string().min(1).max(80).optional(),
  models: z.array(modelReference).min(1, 'a tier lists at least one model'),
});

export const tiersSpec = z.strictObject({
  fast: tierSpec.optional(),
  balanced: tierSpec.optional(),
  frontier: tierSpec.optional(),
});
export type TiersSpec = z.infer<typeof tiersSpec>;

export interface Tier {
  name: TierName;
  label: string;
  models: string[];
}
export type Tiers = Record<TierName, Tier>;

/** A settings schema: a JSON string holding the tiers. */
export function tiersFromJson() {
  return z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be JSON' });
        return z.NEVER;
      }
    })
    .pipe(tiersSpec);
}

/** Reads a tiers file (JSON or YAML); a bad file is a settings error naming the variable. */
export function readTiersFile(path: string, env = 'XV_ROUTER_TIERS_FILE'): TiersSpec {
  let parsed: unknown;
  try {
    parsed = parseYaml(readFileSync(path, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : 'not JSON or YAML';
    throw new SettingsError([{ env, message: `${path}: ${reason}` }]);
  }
  const result = tiersSpec.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new SettingsError([
      { env, message: `${path}: ${issue.path.join('.') || '(root)'}: ${issue.message}` },
    ]);
  }
  return result.data;
}

/** The three tiers; those not configured use `MODEL_NAME`, or have no model at all. */
export function resolveTiers(spec: TiersSpec | undefined, modelName: string | undefined): Tiers {
  const fallback = modelName ? [`openai-compatible:${modelName}`] : [];
  const tiers = {} as Tiers;
  for (const name of TIER_NAMES) {
    const configured = spec?.[name];
    tiers[name] = {
      name,
      label: configured?.label ?? DEFAULT_LABELS[name],
      models: configured?.models ?? fallback,
    };
  }
  return tiers;
}
