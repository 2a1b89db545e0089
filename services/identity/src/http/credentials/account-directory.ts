/**
 * @module http/credentials/account-directory
 * What credentials read from identity's accounts (`AccountDirectory`), as queries
 * compiled once and narrowed to the columns a credential states. Every issuance
 * reads its subject fresh; through the query builder, building and compiling
 * `select * from users where id = ?` cost more than running it, and `*` also read
 * the password hash and TOTP secrets a credential never needs.
 */
import { compileQuery, type Param } from '@xv/platform';
import type {
  AccountDirectory,
  AccountMembership,
  AccountOrganization,
  AccountUser,
} from '../../credentials/index.js';
import type { IdentityDb } from '../../db.js';

export function accountDirectory(db: IdentityDb): AccountDirectory {
  const userById = compileQuery(db, (param: Param<{ id: string }>) =>
    db.selectFrom('users').select(['id', 'realm_id', 'email', 'name']).where('id', '=', param('id')),
  );
  const organizationById = compileQuery(db, (param: Param<{ id: string }>) =>
    db
      .selectFrom('organizations')
      .select(['id', 'realm_id', 'name', 'verified', 'verified_at'])
      .where('id', '=', param('id')),
  );
  const membershipOf = compileQuery(db, (param: Param<{ orgId: string; userId: string }>) =>
    db
      .selectFrom('memberships')
      .select(['org_id', 'role'])
      .where('org_id', '=', param('orgId'))
      .where('user_id', '=', param('userId')),
  );
  return {
    user: (id): Promise<AccountUser | undefined> => userById.takeFirst({ id }),
    organization: (id): Promise<AccountOrganization | undefined> => organizationById.takeFirst({ id }),
    membership: (orgId, userId): Promise<AccountMembership | undefined> =>
      membershipOf.takeFirst({ orgId, userId }),
  };
}
