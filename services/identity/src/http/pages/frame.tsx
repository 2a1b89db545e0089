/**
 * @module http/pages/frame
 * The identity pages' frame: the platform's page layout with the product name,
 * identity's own stylesheet, and a sign-out button for a signed-in person.
 */
import { type ClientAssets, MessagePage, Page, type Viewer } from '@xv/platform/pages';
import type { Child } from 'hono/jsx';

export const PRODUCT = 'XV Identity';

export interface IdentityPageProps {
  assets: ClientAssets;
  title: string;
  signedIn?: boolean;
  /** The signed-in person and their organizations, for the shared header. */
  viewer?: Viewer | undefined;
  /** Client scripts (`src/client/<name>.ts`) the page runs. */
  scripts?: string[];
  /** The response's CSP nonce, which the script tags carry too. */
  nonce?: string;
  children?: Child;
}

function SignOut() {
  return (
    <form method="post" action="/api/auth/logout">
      <button type="submit" class="secondary inline">
        Sign out
      </button>
    </form>
  );
}

export function IdentityPage(props: IdentityPageProps) {
  return (
    <Page
      title={props.title}
      product={PRODUCT}
      home={props.signedIn ? '/account' : '/login'}
      assets={props.assets}
      nav={props.signedIn ? <SignOut /> : undefined}
      section={props.signedIn ? 'account' : undefined}
      viewer={props.viewer}
      stylesheets={['identity']}
      scripts={props.scripts ?? []}
      nonce={props.nonce}
    >
      {props.children}
    </Page>
  );
}

/** A whole identity page as an HTML document. */
export function renderIdentityPage(props: IdentityPageProps): string {
  return `<!doctype html>${(<IdentityPage {...props} />).toString()}`;
}

/** A page that only says one thing: an error or a notice. */
export function renderMessagePage(
  assets: ClientAssets,
  props: { title: string; message: string; link?: { href: string; text: string } },
): string {
  const page = (
    <MessagePage
      title={props.title}
      product={PRODUCT}
      home="/login"
      assets={assets}
      stylesheets={['identity']}
      message={props.message}
      {...(props.link ? { link: props.link } : {})}
    />
  );
  return `<!doctype html>${page.toString()}`;
}

/** A page component's output as an HTML document. */
export function asDocument(page: Child): string {
  return `<!doctype html>${String(page)}`;
}
