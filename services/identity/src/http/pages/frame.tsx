/**
 * @module http/pages/frame
 * The identity pages' frame: the platform's page layout with the product name,
 * identity's own stylesheet, and a sign-out button for a signed-in person.
 */
import { type ClientAssets, MessagePage, Page, ShellContext, useT, type Viewer } from '@xv/platform/pages';
import { type Child, useContext } from 'hono/jsx';
import { messages } from '../../messages/index.js';

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

export function SignOut() {
  const t = useT(messages);
  return (
    <form method="post" action="/api/auth/logout">
      <button type="submit" class="secondary inline">
        {t('frame.signOut')}
      </button>
    </form>
  );
}

export function IdentityPage(props: IdentityPageProps) {
  // Rendered for a request (`sendPage`), the page knows its viewer from the shell.
  const signedIn = props.signedIn ?? (props.viewer ?? useContext(ShellContext).viewer) !== undefined;
  return (
    <Page
      title={props.title}
      product={PRODUCT}
      home={signedIn ? '/account' : '/login'}
      assets={props.assets}
      nav={signedIn ? <SignOut /> : undefined}
      section={signedIn ? 'account' : undefined}
      viewer={props.viewer}
      stylesheets={['identity']}
      scripts={props.scripts ?? []}
      nonce={props.nonce}
    >
      {props.children}
    </Page>
  );
}

/** A failed form post's error, shown above the form that the `aria-describedby` of the form names. */
export function FormError(props: { text: string | undefined; id?: string }) {
  return props.text ? (
    <p class="error" role="alert" id={props.id ?? 'form-error'}>
      {props.text}
    </p>
  ) : null;
}

/** A page that only says one thing, for the viewer of the shell it is rendered in. */
export function IdentityMessage(props: {
  assets: ClientAssets;
  /** Catalogue keys; a text that is no key shows as written. */
  title: string;
  message: string;
  values?: Record<string, string> | undefined;
  link?: { href: string; text: string } | undefined;
}) {
  const signedIn = useContext(ShellContext).viewer !== undefined;
  const t = useT(messages);
  const word = (text: string, values?: Record<string, string>) => (t.has(text) ? t(text, values) : text);
  return (
    <MessagePage
      title={word(props.title)}
      product={PRODUCT}
      home={signedIn ? '/account' : '/login'}
      assets={props.assets}
      nav={signedIn ? <SignOut /> : undefined}
      section={signedIn ? 'account' : undefined}
      stylesheets={['identity']}
      message={word(props.message, props.values)}
      {...(props.link ? { link: { href: props.link.href, text: word(props.link.text) } } : {})}
    />
  );
}
