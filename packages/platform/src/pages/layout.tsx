/**
 * @module pages/layout
 * The frame of every XV page: the shared stylesheet and shell script (theme
 * toggle, organization switch), the favicon, the product's header (shell.tsx), a skip link, one `main` landmark, and the page's own bundled
 * scripts and stylesheets (never inline code).
 */
import { type Child, useContext } from 'hono/jsx';
import { DEFAULT_LOCALE, translator } from '../i18n.js';
import { shellMessages } from '../messages/index.js';
import type { ClientAssets } from './client-assets.js';
import { type Section, ShellContext, type ShellLinks, SiteHeader, type Viewer } from './shell.js';

export interface PageProps {
  /** The page's own title; the document title adds the product. */
  title: string;
  /** The product name in the header, e.g. `XV Identity`. */
  product: string;
  /** Where the product name links to. */
  home: string;
  assets: ClientAssets;
  /** The service's own links, under the product's sections. */
  nav?: Child;
  /** The product section this page belongs to, marked current in the header. */
  section?: Section;
  /** The signed-in person; without one the header offers "Sign in". */
  viewer?: Viewer | undefined;
  /** The services' URLs the header links to (default: the platform settings). */
  links?: ShellLinks;
  footer?: Child;
  /** Names of this service's client scripts (`src/client/<name>.ts`) the page loads. */
  scripts?: string[];
  /** The response's CSP nonce (`cspNonce(c)`, or from `withShell`), carried by the script tags. Without one the page loads no shell script. */
  nonce?: string;
  /** Names of this service's client stylesheets (`src/client/<name>.css`). */
  stylesheets?: string[];
  /** `wide` for tables and documents; forms read better narrow. */
  width?: 'narrow' | 'wide';
  /** Extra `<head>` content (a `<meta>` policy, say). */
  head?: Child;
  children?: Child;
}

export function Page(props: PageProps) {
  const shell = useContext(ShellContext);
  const nonce = props.nonce ?? shell.nonce;
  const locale = shell.locale ?? DEFAULT_LOCALE;
  return (
    <html lang={locale} data-theme={shell.theme}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* The platform sends Referrer-Policy: no-referrer, with which browsers send `Origin: null` on
            form posts and the CSRF check refuses them. Forms post to the page's own origin. */}
        <meta name="referrer" content="same-origin" />
        {props.head}
        <title>{`${props.title} · ${props.product}`}</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href={props.assets.stylesheet('xv')} />
        {/* The shell script carries the response's nonce; a page rendered without one promises no
            script at all, and its theme then simply follows the system's preference. */}
        {nonce ? <script type="module" src={props.assets.script('shell')} nonce={nonce} /> : null}
        {(props.stylesheets ?? []).map((name) => (
          <link rel="stylesheet" href={props.assets.stylesheet(name)} />
        ))}
        {(props.scripts ?? []).map((name) => (
          <script type="module" src={props.assets.script(name)} nonce={nonce} />
        ))}
      </head>
      <body>
        <a class="skip" href="#main">
          {translator(shellMessages, locale)('shell.skip')}
        </a>
        <SiteHeader
          product={props.product}
          home={props.home}
          nav={props.nav}
          section={props.section}
          viewer={props.viewer}
          links={props.links}
        />
        <main id="main" class={props.width === 'wide' ? 'wide' : undefined}>
          {props.children}
        </main>
        {props.footer ? <footer class="site-footer">{props.footer}</footer> : null}
      </body>
    </html>
  );
}

/** The page as an HTML document. */
export function renderPage(props: PageProps): string {
  return `<!doctype html>${(<Page {...props} />).toString()}`;
}

/** A page that says one thing: an error or a notice, with an optional way on. */
export function MessagePage(
  props: Omit<PageProps, 'children'> & { message: string; link?: { href: string; text: string } },
) {
  const { message, link, ...page } = props;
  return (
    <Page {...page}>
      <section>
        <h1>{props.title}</h1>
        <p role="alert">{message}</p>
        {link ? <a href={link.href}>{link.text}</a> : null}
      </section>
    </Page>
  );
}
