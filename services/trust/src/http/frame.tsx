/**
 * @module http/frame
 * The frame of every trust page: the platform layout, the trust stylesheet, and the
 * key set in the footer, in the page's language.
 */
import { type ClientAssets, Page, richText, useT } from '@xv/platform/pages';
import type { Child } from 'hono/jsx';
import { messages } from '../messages/index.js';

export function TrustPage(props: { assets: ClientAssets; title: string; children?: Child }) {
  const t = useT(messages);
  return (
    <Page
      title={props.title}
      product="XV Trust"
      home="/verify"
      section="verify"
      assets={props.assets}
      stylesheets={['trust']}
      nav={<a href="/verify">{t('frame.nav.verify')}</a>}
      footer={<p>{richText(t('frame.footer'), { keys: <a href="/api/keys/jwks">/api/keys/jwks</a> })}</p>}
    >
      <section>{props.children}</section>
    </Page>
  );
}
