/**
 * @module http/pages/tokens
 * The page where a user manages their personal access tokens. A new token is
 * shown once, on the page that answers its creation.
 */
import type { ClientAssets } from '@xv/platform/pages';
import { SCOPES } from '../../access/caller.js';
import type { TokenSummary } from '../../tokens/tokens.js';
import { KnowledgePage } from './layout.js';

export function TokensPage(props: {
  tokens: TokenSummary[];
  email: string;
  assets: ClientAssets;
  created?: { name: string; token: string } | undefined;
  message?: string | undefined;
}) {
  return (
    <KnowledgePage title="Access tokens" assets={props.assets}>
      <h1>Personal access tokens</h1>
      <p>
        Tokens act as you ({props.email}) in the organization that is active now. <code>sync</code> lets the
        desktop client push and submit documents; <code>ai:read</code> lets agents search and use the MCP
        server.
      </p>
      {props.message ? <p class="error">{props.message}</p> : null}
      {props.created ? (
        <div class="notice">
          <p>
            Token <strong>{props.created.name}</strong> created. Copy it now: it will not be shown again.
          </p>
          <code class="secret" id="new-token">
            {props.created.token}
          </code>
        </div>
      ) : null}
      <form method="post" action="/tokens" class="card">
        <label>
          Name <input name="name" required maxlength={100} />
        </label>
        <p class="scopes">
          {SCOPES.map((scope) => (
            <label>
              <input type="checkbox" name="scopes" value={scope} checked={scope === 'sync'} /> {scope}
            </label>
          ))}
        </p>
        <button type="submit">Create token</button>
      </form>
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>Scopes</th>
            <th>Created</th>
            <th>Last used</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {props.tokens.map((t) => (
            <tr>
              <td>{t.name}</td>
              <td>{t.scopes.join(', ')}</td>
              <td>{t.createdAt}</td>
              <td>{t.lastUsedAt ?? 'never'}</td>
              <td>
                <form method="post" action={`/tokens/${t.id}/revoke`}>
                  <button type="submit">Revoke</button>
                </form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </KnowledgePage>
  );
}
