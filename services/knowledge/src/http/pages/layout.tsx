/**
 * @module http/pages/layout
 * The frame of every knowledge base page: the platform's `Page` with the product's
 * name and navigation, and the `knowledge` stylesheet (`src/client/knowledge.css`).
 * Pages need no script of their own (only the platform's shell script, served
 * from this origin), so each also carries a `<meta>` policy allowing nothing but
 * those files: on top of the sanitised Markdown, an inline script or handler a
 * document slipped through still could not run.
 */
import type { ClientAssets, Section } from '@xv/platform/pages';
import { MessagePage, Page } from '@xv/platform/pages';
import type { Child } from 'hono/jsx';

export const PRODUCT = 'XV knowledge base';

const NO_SCRIPTS = (
  <meta
    http-equiv="Content-Security-Policy"
    content="script-src 'self'; object-src 'none'; base-uri 'none'"
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
  /** `review` for the reviewers' pages; the library by default. */
  section?: Section;
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
      section={props.section ?? 'knowledge'}
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
      section="knowledge"
      head={NO_SCRIPTS}
      stylesheets={['knowledge']}
      link={props.link ?? { href: '/review', text: 'Back to the review queue' }}
    />
  );
}
