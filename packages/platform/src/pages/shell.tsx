/**
 * @module pages/shell
 * The header every XV page shares: the product's sections as links to the other
 * services, the signed-in person with their active organization (and a switcher
 * when they belong to several), or a "Sign in" link, and the theme toggle.
 * Service addresses come from the platform settings (`XV_<KEY>_URL` / `_PORT`).
 */
import type { Context } from 'hono';
import { type Child, createContext, useContext } from 'hono/jsx';
import type { IdentitySession } from '../auth/principals.js';
import { cspNonce } from '../http/csp.js';
import { requestLocale, requestTheme, type Theme } from '../http/preferences.js';
import { activeMembership, type SsoClient } from '../http/sso.js';
import { DEFAULT_LOCALE, LOCALE_NAMES, LOCALES, type Locale, translator } from '../i18n.js';
import { shellMessages } from '../messages/index.js';
import { serviceAddresses } from '../settings/platform.js';

/** The product's sections; `admin` marks the pages only administrators see. */
export type Section = 'account' | 'knowledge' | 'assistant' | 'verify' | 'review';

/** Who is looking at the page, as the header shows them. */
export interface Viewer {
  /** Their name, or their e-mail when they have none. */
  name: string;
  organizations: { id: string; name: string }[];
  activeOrgId?: string | undefined;
  /** Sees the administrators' links (the review queue). */
  admin?: boolean | undefined;
}

/** The public URL of each service the header links to. */
export interface ShellLinks {
  identity: string;
  knowledge: string;
  agent: string;
  trust: string;
}

/** What a page learns from its request: who is looking, their language, where they are, and the response's CSP nonce. */
export interface RequestShell {
  viewer?: Viewer | undefined;
  nonce?: string | undefined;
  locale?: Locale | undefined;
  /** The page's path and query, where the language switch returns to. */
  path?: string | undefined;
  /** The reader's explicit theme (none: the system's). */
  theme?: Theme | undefined;
}

/** The shell of a page answering `c`: its nonce, language, path and theme, for `viewer` (none: signed out). */
export function shellOf(c: Context, viewer?: Viewer): RequestShell {
  const url = new URL(c.req.url);
  return {
    viewer,
    nonce: cspNonce(c),
    locale: requestLocale(c),
    path: url.pathname + url.search,
    theme: requestTheme(c),
  };
}

/**
 * The request's shell for the page being rendered, for services whose pages are
 * many components deep: wrap the page once (`withShell`) instead of passing
 * `viewer` and `nonce` down to every `Page`.
 */
export const ShellContext = createContext<RequestShell>({});

/** The page rendered for the request's viewer (none: signed out) and with its nonce. */
export function withShell(shell: RequestShell, page: Child) {
  return <ShellContext.Provider value={shell}>{page}</ShellContext.Provider>;
}

let cachedLinks: ShellLinks | undefined;

/** The services' public URLs from the process's settings (read once). */
export function shellLinks(): ShellLinks {
  if (!cachedLinks) {
    let services: ReturnType<typeof serviceAddresses> | undefined;
    try {
      services = serviceAddresses();
    } catch {
      // A malformed address setting fails the service's own start; the header falls back to defaults.
      services = serviceAddresses({});
    }
    cachedLinks = {
      identity: services.identity.url,
      knowledge: services.knowledge.url,
      agent: services.agent.url,
      trust: services.trust.url,
    };
  }
  return cachedLinks;
}

/** Permissions that make a member an administrator in the header's eyes. */
const ADMIN_PERMISSIONS = ['org:manage', 'members:manage', 'review:decide'];

/** The header's viewer for an identity session, acting for the organization the request chose. */
export function viewerOf(session: IdentitySession, c: Context): Viewer {
  const active = activeMembership(session, c);
  return {
    name: session.user.name || session.user.email,
    organizations: session.memberships.map((m) => ({ id: m.org_id, name: m.org_name })),
    activeOrgId: active?.org_id,
    admin: active?.permissions.some((p) => ADMIN_PERMISSIONS.includes(p)) ?? false,
  };
}

/**
 * The header's viewer for the request's session, or undefined when signed out. A
 * public page still renders when identity cannot be reached: it then shows "Sign in".
 */
export async function viewerFor(sso: SsoClient, c: Context): Promise<Viewer | undefined> {
  const session = await sso.sessionOf(c).catch(() => null);
  return session ? viewerOf(session, c) : undefined;
}

/** A page element as an HTML document, for the request's viewer and with its nonce. */
export function renderWithShell(shell: RequestShell, page: Child): string {
  return `<!doctype html>${withShell(shell, page).toString()}`;
}

function SectionLink(props: { href: string; section: Section; current?: Section | undefined; text: string }) {
  return (
    <li>
      <a href={props.href} aria-current={props.current === props.section ? 'page' : undefined}>
        {props.text}
      </a>
    </li>
  );
}

type ShellT = ReturnType<typeof translator<typeof shellMessages.en>>;

function ViewerBox({ viewer, links, t }: { viewer: Viewer; links: ShellLinks; t: ShellT }) {
  const active = viewer.organizations.find((o) => o.id === viewer.activeOrgId) ?? viewer.organizations[0];
  return (
    <div class="viewer">
      <a class="person" href={`${links.identity}/account`}>
        {viewer.name}
      </a>
      {viewer.organizations.length > 1 ? (
        // Without JavaScript the form opens the account page, where the organization is chosen;
        // the shell script posts the choice to identity's switch endpoint instead.
        <form
          class="org-switch inline"
          method="get"
          action={`${links.identity}/account`}
          data-switch-url={`${links.identity}/api/org/switch`}
        >
          <label for="xv-org" class="visually-hidden">
            {t('shell.organization')}
          </label>
          <select id="xv-org" name="org_id">
            {viewer.organizations.map((o) => (
              <option value={o.id} selected={o.id === active?.id}>
                {o.name}
              </option>
            ))}
          </select>
          <button type="submit" class="secondary small">
            {t('shell.switch')}
          </button>
        </form>
      ) : active ? (
        <span class="org">{active.name}</span>
      ) : null}
    </div>
  );
}

/** Links to the page in each language; the current one is marked. Each name is written in its own language. */
function LanguageSwitch({ locale, path, t }: { locale: Locale; path: string; t: ShellT }) {
  return (
    <nav aria-label={t('shell.language')} class="languages">
      <ul>
        {LOCALES.map((code) => (
          <li>
            <a
              href={`/lang?to=${code}&back=${encodeURIComponent(path)}`}
              lang={code}
              hreflang={code}
              aria-current={code === locale ? 'true' : undefined}
            >
              {LOCALE_NAMES[code]}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export interface SiteHeaderProps {
  product: string;
  home: string;
  /** The service's own links. */
  nav?: Child;
  section?: Section | undefined;
  viewer?: Viewer | undefined;
  links?: ShellLinks | undefined;
}

export function SiteHeader(props: SiteHeaderProps) {
  const links = props.links ?? shellLinks();
  const current = props.section;
  const shell = useContext(ShellContext);
  const viewer = props.viewer ?? shell.viewer;
  const locale = shell.locale ?? DEFAULT_LOCALE;
  const t = translator(shellMessages, locale);
  return (
    <header class="site">
      <a class="product" href={props.home}>
        <img src="/favicon.svg" alt="" width="24" height="24" />
        {props.product}
      </a>
      <nav aria-label={t('shell.sections')} class="sections">
        <ul>
          <SectionLink
            href={`${links.identity}/account`}
            section="account"
            current={current}
            text={t('shell.section.account')}
          />
          <SectionLink
            href={`${links.knowledge}/`}
            section="knowledge"
            current={current}
            text={t('shell.section.knowledge')}
          />
          <SectionLink
            href={`${links.agent}/`}
            section="assistant"
            current={current}
            text={t('shell.section.assistant')}
          />
          <SectionLink
            href={`${links.trust}/`}
            section="verify"
            current={current}
            text={t('shell.section.verify')}
          />
          {viewer?.admin ? (
            <SectionLink
              href={`${links.knowledge}/review`}
              section="review"
              current={current}
              text={t('shell.section.review')}
            />
          ) : null}
        </ul>
      </nav>
      {viewer ? (
        <ViewerBox viewer={viewer} links={links} t={t} />
      ) : (
        <a class="sign-in" href={`${links.identity}/login`}>
          {t('shell.signIn')}
        </a>
      )}
      <LanguageSwitch locale={locale} path={shell.path ?? '/'} t={t} />
      <button type="button" class="theme-toggle secondary small" data-theme-toggle hidden>
        {t('shell.theme')}
      </button>
      {props.nav ? (
        <nav aria-label={t('shell.localNav', { product: props.product })} class="local">
          {props.nav}
        </nav>
      ) : null}
    </header>
  );
}

/** The product's mark, served by every service at `/favicon.svg`. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1d4ed8"/><path d="M8 8l6.5 8L8 24h4l4.5-5.5L21 24h4l-6.5-8L25 8h-4l-4.5 5.5L12 8z" fill="#fff"/></svg>`;
