/**
 * @module launcher/banner
 * What `xv start` prints once everything is ready: first the pages a person opens
 * (sign in, account, knowledge, assistant, verify), then each service's API and its
 * docs, then what still needs configuration and how (a model for the assistant, an
 * SMTP server for e-mail, whose messages otherwise land in identity's development outbox).
 */
import { loadSettings, SERVICES, type ServiceName } from '@xv/platform';
import { createModelCatalog, modelSettingsSpec } from '@xv/platform/ai';

export interface BannerOptions {
  /** The services started, in catalogue order. */
  names: ServiceName[];
  addresses: Record<ServiceName, { url: string }>;
  /** The dev chain's RPC address, when the launcher started it. */
  chainRpcUrl?: string;
  env: Record<string, string | undefined>;
}

/** The pages of the product, by the service that serves them. */
const PAGES: { label: string; service: ServiceName; path: string }[] = [
  { label: 'Sign in', service: 'identity', path: '/login' },
  { label: 'Account', service: 'identity', path: '/account' },
  { label: 'Knowledge', service: 'knowledge', path: '/' },
  { label: 'Assistant', service: 'agent', path: '/' },
  { label: 'Verify', service: 'trust', path: '/' },
];

const MODEL_SETTINGS =
  'set MODEL_BASE_URL and MODEL_API_KEY (an OpenAI-compatible model, MODEL_NAME its default) or ' +
  'XV_WORKERS_AI_ACCOUNT_ID and XV_WORKERS_AI_TOKEN (Workers AI)';

export function startBanner(o: BannerOptions): string {
  const pages = PAGES.filter((page) => o.names.includes(page.service)).map((page) => [
    page.label,
    `${o.addresses[page.service].url}${page.path}`,
  ]);
  const apis = o.names.map((name) => [
    SERVICES[name].title,
    o.addresses[name].url,
    `${o.addresses[name].url}/docs`,
  ]);
  if (o.chainRpcUrl) apis.push(['EVM dev chain (anvil)', o.chainRpcUrl, '']);
  const hints = configurationHints(o.names, o.env);
  if (o.names.includes('identity') && !o.env.XV_SMTP_URL)
    hints.push(
      `E-mail (invitations, password resets): no SMTP server — set XV_SMTP_URL; until then messages land in the development outbox at ${o.addresses.identity.url}/dev/outbox.`,
    );

  const out = ['', 'XV is running. Open in a browser:', ...table(pages)];
  out.push('', 'APIs and their docs:', ...table(apis));
  if (hints.length > 0) out.push('', 'Needs configuration:', ...hints.map((hint) => `  ${hint}`));
  out.push('', 'Press Ctrl-C to stop.', '', '');
  return out.join('\n');
}

/** What does not work yet for want of a setting, and the settings that make it work. */
export function configurationHints(names: ServiceName[], env: Record<string, string | undefined>): string[] {
  const usesModel = names.includes('agent') || names.includes('orchestration');
  if (!usesModel) return [];
  let configured: boolean;
  try {
    const catalog = createModelCatalog(loadSettings(modelSettingsSpec, env));
    configured = Object.values(catalog.configured).some(Boolean);
  } catch (error) {
    return [`Model settings are not valid: ${(error as Error).message} (see docs/agent.md).`];
  }
  if (configured) return [];
  const hints: string[] = [];
  if (names.includes('agent'))
    hints.push(`Assistant: no model configured — ${MODEL_SETTINGS} (see docs/agent.md).`);
  if (names.includes('orchestration'))
    hints.push('Orchestration: model routes have no model — the same settings (see docs/orchestration.md).');
  return hints;
}

/** Rows of cells, each column padded to its widest cell. */
function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]!.length))) ?? [];
  return rows.map((row) =>
    `  ${row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ')}`.trimEnd(),
  );
}
