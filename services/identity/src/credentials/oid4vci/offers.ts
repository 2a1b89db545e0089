/**
 * @module credentials/oid4vci/offers
 * A wallet offer for the signed-in person, after checking they may hold the
 * credentials it names: a member of the organization for a membership, an
 * administrator for an organization attestation.
 */
import { guardErrors, type SessionMembership } from '@xv/platform';
import { credentialErrors } from '../errors.js';
import { type CredentialType, isCredentialType } from '../types.js';
import type { CredentialOfferResult, WalletIssuance } from './wallet.js';

export interface OfferHolder {
  realmId: string;
  userId: string;
  memberships: readonly SessionMembership[];
  /** The organization the person is working in (the platform's active organization). */
  active: SessionMembership | undefined;
}

export interface OfferInput {
  types: string[];
  orgId?: string | undefined;
  pin: boolean;
}

export async function offerFor(
  wallet: WalletIssuance,
  holder: OfferHolder,
  input: OfferInput,
): Promise<CredentialOfferResult> {
  if (input.types.length === 0) throw credentialErrors.type_required();
  const types: CredentialType[] = [];
  for (const type of input.types) {
    if (!isCredentialType(type)) throw credentialErrors.unknown_type();
    if (!types.includes(type)) types.push(type);
  }
  let orgId: string | null = null;
  if (types.includes('MembershipCredential') || types.includes('OrganizationAttestation')) {
    const membership = input.orgId ? holder.memberships.find((m) => m.org_id === input.orgId) : holder.active;
    if (!membership) throw input.orgId ? guardErrors.not_a_member() : credentialErrors.org_required();
    if (types.includes('OrganizationAttestation') && membership.role !== 'admin')
      throw credentialErrors.admin_required();
    orgId = membership.org_id;
  }
  return wallet.createOffer({
    realmId: holder.realmId,
    userId: holder.userId,
    orgId,
    types,
    pin: input.pin,
  });
}
