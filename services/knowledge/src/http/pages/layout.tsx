/**
 * @module http/pages/layout
 * The frame of every knowledge base page: the platform's `Page` with the product's
 * name and navigation, and the `knowledge` stylesheet (`src/client/knowledge.css`).
 * Pages need no script at all, so each also carries a `<meta>` policy forbidding
 * scripts: on top of the sanitised Markdown, a document that slipped something
 * through still could not run it.
 */
import type { ClientAssets } from '@xv/platform/pages';
import { MessagePage, Page } from '@xv/platform/pages';
import type { Child } from 'hono/jsx';

export const PRODUCT = 'XV knowledge base';

const NO_SCRIPTS = (
  <meta
    http-equiv="Content-Security-Policy"
    content="script-src 'none'; object-src 'none'; base-uri 'none'"
  />
);

const NAV = (
  <>
    <a href="/">Library</a>
    <a href="/mine">My documents</a>
    <a href="/review">Review queue</a>
    <a href="/tokens">Access tokens</a>
  </>
);

export interface KnowledgePageProps {
  title: string;
  assets: ClientAssets;
  children?: Child;
}

export function KnowledgePage(props: KnowledgePageProps) {
  return (
    <Page
      title={props.title}
      product={PRODUCT}
      home="/"
      assets={props.assets}
      nav={NAV}
      head={NO_SCRIPTS}
      stylesheets={['knowledge']}
      width="wide"
    >
      {props.children}
    </Page>
  );
}

/** A page that says one thing went wrong (the platform's `MessagePage` in the knowledge base's frame). */
export function ErrorPage(props: {
  title: string;
  message: string;
  assets: ClientAssets;
  link?: { href: string; text: string };
}) {
  return (
    <MessagePage
      title={props.title}
      message={props.message}
      product={PRODUCT}
      home="/"
      assets={props.assets}
      nav={NAV}
      head={NO_SCRIPTS}
      stylesheets={['knowledge']}
      link={props.link ?? { href: '/review', text: 'Back to the review queue' }}
    />
  );
}
