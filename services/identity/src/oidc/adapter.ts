/**
 * @module oidc/adapter
 * oidc-provider's storage in identity's database: one adapter class per realm, so a realm's provider never
 * finds another realm's grants, codes or tokens. Expired rows are invisible at once and swept later; `consume`
 * marks a code or a rotated refresh token used, which oidc-provider then treats as a replay (it revokes the
 * whole grant). The apps organizations register come from `oidc_clients` (clients.ts); only self-registered
 * apps (registration.ts) are stored here, removed when unused.
 */
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { IdentityDb } from '../db.js';
import { clientMetadata } from './clients.js';
import {
  findSelfRegistered,
  forgetExpiredSelfRegistered,
  isSelfRegistered,
  selfRegisteredExpiry,
} from './registration.js';

/** The adapter constructor oidc-provider wants (`new Adapter(modelName)`), bound to one realm. */
export function adapterForRealm(db: IdentityDb, realmId: string): new (model: string) => Adapter {
  return class RealmAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      if (this.model === 'Client' && !isSelfRegistered(id))
        throw new Error('only self-registered apps are stored');
      const row = {
        payload: JSON.stringify(payload),
        grant_id: payload.grantId ?? null,
        user_code: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expires_at:
          this.model === 'Client' ? selfRegisteredExpiry() : expiresIn ? Date.now() + expiresIn * 1000 : null,
        consumed_at: null,
      };
      await db
        .insertInto('oidc_models')
        .values({ realm_id: realmId, model: this.model, id, ...row })
        .onConflict((conflict) => conflict.columns(['realm_id', 'model', 'id']).doUpdateSet(row))
        .execute();
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === 'Client')
        return isSelfRegistered(id) ? findSelfRegistered(db, realmId, id) : clientMetadata(db, realmId, id);
      return this.findWhere('id', id);
    }

    findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.findWhere('uid', uid);
    }

    findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.findWhere('user_code', userCode);
    }

    async destroy(id: string): Promise<void> {
      await db
        .deleteFrom('oidc_models')
        .where('realm_id', '=', realmId)
        .where('model', '=', this.model)
        .where('id', '=', id)
        .execute();
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db
        .deleteFrom('oidc_models')
        .where('realm_id', '=', realmId)
        .where('grant_id', '=', grantId)
        .execute();
    }

    async consume(id: string): Promise<void> {
      await db
        .updateTable('oidc_models')
        .set({ consumed_at: Date.now() })
        .where('realm_id', '=', realmId)
        .where('model', '=', this.model)
        .where('id', '=', id)
        .execute();
    }

    private async findWhere(column: 'id' | 'uid' | 'user_code', value: string) {
      if (typeof value !== 'string' || value.length > 512) return undefined;
      const row = await db
        .selectFrom('oidc_models')
        .select(['payload', 'expires_at', 'consumed_at'])
        .where('realm_id', '=', realmId)
        .where('model', '=', this.model)
        .where(column, '=', value)
        .executeTakeFirst();
      if (!row || (row.expires_at !== null && row.expires_at <= Date.now())) return undefined;
      const payload = JSON.parse(row.payload) as AdapterPayload;
      return row.consumed_at === null
        ? payload
        : { ...payload, consumed: Math.floor(row.consumed_at / 1000) };
    }
  };
}

/** Deletes every expired row (all realms); called now and then. */
export async function sweepExpiredModels(db: IdentityDb): Promise<void> {
  await forgetExpiredSelfRegistered(db);
  await db.deleteFrom('oidc_models').where('expires_at', '<=', Date.now()).execute();
}
