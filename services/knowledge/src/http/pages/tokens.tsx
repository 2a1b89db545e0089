/**
 * @module http/pages/tokens
 * The page where a user manages their personal access tokens. A new token is
 * shown once, on the page that answers its creation.
 */
import { type ClientAssets, LocalTime, richText, useT } from '@xv/platform/pages';
import { SCOPES } from '../../access/caller.js';
import { messages } from '../../messages/index.js';
import type { TokenSummary } from '../../tokens/tokens.js';
import { KnowledgePage } from './layout.js';

export function TokensPage(props: {
  tokens: TokenSummary[];
  email: string;
  assets: ClientAssets;
  created?: { name: string; token: string } | undefined;
  /** The form came without a name or without a scope. */
  invalid?: boolean | undefined;
}) {
  const t = useT(messages);
  return (
    <KnowledgePage title={t('tokens.title')} assets={props.assets}>
      <h1>{t('tokens.heading')}</h1>
      <p>
        {richText(t('tokens.intro'), {
          email: props.email,
          sync: <code>sync</code>,
          aiRead: <code>ai:read</code>,
        })}
      </p>
      {props.invalid ? <p class="error">{t('tokens.needNameAndScope')}</p> : null}
      {props.created ? (
        <div class="notice">
          <p>{richText(t('tokens.created'), { name: <strong>{props.created.name}</strong> })}</p>
          <code class="secret" id="new-token">
            {props.created.token}
          </code>
        </div>
      ) : null}
      <form method="post" action="/tokens" class="card">
        <label>
          {t('tokens.name')} <input name="name" required maxlength={100} />
        </label>
        <fieldset class="scopes">
          <legend>{t('tokens.scopes')}</legend>
          {SCOPES.map((scope) => (
            <label>
              <input type="checkbox" name="scopes" value={scope} checked={scope === 'sync'} /> {scope}
            </label>
          ))}
        </fieldset>
        <button type="submit">{t('tokens.create')}</button>
      </form>
      <table>
        <thead>
          <tr>
            <th>{t('tokens.name')}</th>
            <th>{t('tokens.scopes')}</th>
            <th>{t('tokens.column.created')}</th>
            <th>{t('tokens.column.lastUsed')}</th>
            <th>
              <span class="visually-hidden">{t('tokens.column.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {props.tokens.map((token) => (
            <tr>
              <td>{token.name}</td>
              <td>{token.scopes.join(', ')}</td>
              <td>
                <LocalTime value={token.createdAt} />
              </td>
              <td>{token.lastUsedAt ? <LocalTime value={token.lastUsedAt} /> : t('tokens.never')}</td>
              <td>
                <form method="post" action={`/tokens/${token.id}/revoke`}>
                  <button type="submit">{t('tokens.revoke')}</button>
                </form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </KnowledgePage>
  );
}
