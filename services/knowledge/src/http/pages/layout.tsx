/**
 * @module http/pages/layout
 * The frame of every knowledge base page: the platform's `Page` with the product's
 * name and navigation in the page's language, and the `knowledge` stylesheet
 * (`src/client/knowledge.css`). Pages need no script of their own (only the
 * platform's shell script, served from this origin), so each also carries a
 * `<meta>` policy allowing nothing but those files: on top of the sanitised
 * Markdown, an inline script or handler a document slipped through still could not run.
 */
import type { ClientAssets, Section } from '@xv/platform/pages';
import { MessagePage, Page, useT } from '@xv/platform/pages';
import type { Child } from 'hono/jsx';
import { type MessageKey, messages } from '../../messages/index.js';
import { errorText } from './words.js';

const NO_SCRIPTS = (
  <meta
    http-equiv="Content-Security-Policy"
    content="script-src 'self'; object-src 'none'; base-uri 'none'"
  />
);

function Nav() {
  const t = useT(messages);
  return (
    <>
      <a href="/">{t('nav.library')}</a>
      <a href="/mine">{t('nav.mine')}</a>
      <a href="/review">{t('nav.review')}</a>
      <a href="/tokens">{t('nav.tokens')}</a>
    </>
  );
}

export interface KnowledgePageProps {
  title: string;
  /** `review` for the reviewers' pages; the library by default. */
  section?: Section;
  assets: ClientAssets;
  children?: Child;
}

export function KnowledgePage(props: KnowledgePageProps) {
  const t = useT(messages);
  return (
    <Page
      title={props.title}
      product={t('product')}
      home="/"
      assets={props.assets}
      nav={<Nav />}
      section={props.section ?? 'knowledge'}
      head={NO_SCRIPTS}
      stylesheets={['knowledge']}
      width="wide"
    >
      {props.children}
    </Page>
  );
}

/** An API error a page shows: its code picks the wording, its own message is the fallback. */
export interface PageError {
  code: string;
  message: string;
}

/** A page that says one thing went wrong (the platform's `MessagePage` in the knowledge base's frame). */
export function ErrorPage(props: {
  title: MessageKey;
  message: MessageKey | PageError;
  assets: ClientAssets;
  link?: { href: string; text: MessageKey };
}) {
  const t = useT(messages);
  const link = props.link ?? { href: '/review', text: 'error.backToReview' };
  return (
    <MessagePage
      title={t(props.title)}
      message={typeof props.message === 'string' ? t(props.message) : errorText(t, props.message)}
      product={t('product')}
      home="/"
      assets={props.assets}
      nav={<Nav />}
      section="knowledge"
      head={NO_SCRIPTS}
      stylesheets={['knowledge']}
      link={{ href: link.href, text: t(link.text) }}
    />
  );
}
