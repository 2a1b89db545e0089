/**
 * @module settings
 * The orchestration service's own settings (environment variables), on top of the platform's.
 */
import { flag, seconds, setting, z } from '@xv/platform';
import { modelSettingsSpec } from '@xv/platform/ai';
import { tiersFromJson } from './router/tiers.js';

const count = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const milliseconds = (fallback: number) => z.coerce.number().int().positive().max(600_000).default(fallback);
const secret = (minLength: number) => z.string().min(minLength, `must be at least ${minLength} characters`);

/** A comma-separated list of host names, each optionally with a port: `api.example.com,127.0.0.1:8080`. */
const hostList = z
  .string()
  .default('')
  .transform((list) =>
    list
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(
    z.array(
      z.string().regex(/^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:]+\](:\d{1,5})?$/, 'must list host[:port] names'),
    ),
  );

export const orchestrationSettings = {
  /* The shared model layer: MODEL_BASE_URL, MODEL_API_KEY, MODEL_NAME, XV_WORKERS_AI_* */
  ...modelSettingsSpec,

  /* Router */
  routerTiers: setting('XV_ROUTER_TIERS', tiersFromJson().optional()),
  routerTiersFile: setting('XV_ROUTER_TIERS_FILE', z.string().min(1).optional()),
  modelTimeoutMs: setting('XV_ROUTER_MODEL_TIMEOUT_MS', milliseconds(20_000)),
  cooldownFailures: setting('XV_ROUTER_COOLDOWN_FAILURES', count(3)),
  cooldownWindowSeconds: setting('XV_ROUTER_COOLDOWN_WINDOW_SECONDS', seconds(60)),
  cooldownSeconds: setting('XV_ROUTER_COOLDOWN_SECONDS', seconds(30)),

  /* Workflows */
  workflowsDir: setting('XV_WORKFLOWS_DIR', z.string().min(1).optional()),
  httpAllowedHosts: setting('XV_WF_HTTP_ALLOWED_HOSTS', hostList),
  stepTimeoutMs: setting('XV_WF_STEP_TIMEOUT_MS', milliseconds(30_000)),
  /** A run whose instance stopped renewing its lease this long ago is resumed by another (or the next) start. */
  leaseSeconds: setting('XV_WF_LEASE_SECONDS', seconds(30)),
  /** How long a duplicate request (same idemKey) waits for the first one's run before answering `running`. */
  duplicateWaitSeconds: setting('XV_WF_DUPLICATE_WAIT_SECONDS', seconds(60)),
  kbToken: setting('XV_ORCH_KB_TOKEN', secret(8).optional(), { secret: true }),
  trustToken: setting('XV_ORCH_TRUST_TOKEN', secret(8).optional(), { secret: true }),

  /* Leads */
  adminToken: setting('XV_ORCH_ADMIN_TOKEN', secret(16).optional(), { secret: true }),
  leadChallenge: setting('XV_LEAD_CHALLENGE', z.enum(['off', 'altcha', 'turnstile']).default('off')),
  altchaHmacKey: setting('XV_ALTCHA_HMAC_KEY', secret(16).optional(), { secret: true }),
  altchaMaxNumber: setting(
    'XV_ALTCHA_MAX_NUMBER',
    z.coerce.number().int().min(10).max(10_000_000).default(100_000),
  ),
  altchaExpireSeconds: setting('XV_ALTCHA_EXPIRE_SECONDS', seconds(600)),
  turnstileSiteKey: setting('XV_TURNSTILE_SITE_KEY', z.string().min(1).optional()),
  turnstileSecretKey: setting('XV_TURNSTILE_SECRET_KEY', z.string().min(1).optional(), { secret: true }),
  turnstileVerifyUrl: setting(
    'XV_TURNSTILE_VERIFY_URL',
    z.url({ protocol: /^https?$/ }).default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  ),

  /* Abuse protection: requests per client IP and minute */
  routePerMinute: setting('XV_ORCH_ROUTE_PER_MINUTE', count(60)),
  workflowPerMinute: setting('XV_ORCH_WF_PER_MINUTE', count(60)),
  leadPerMinute: setting('XV_ORCH_LEAD_PER_MINUTE', count(10)),
  readPerMinute: setting('XV_ORCH_READ_PER_MINUTE', count(600)),
  /** Serve the lead form page at `/lead`. */
  leadPage: setting('XV_LEAD_PAGE', flag(true)),
};
