/**
 * @module migrations
 * The identity service's schema, in order. Never edit a migration that has shipped; add one.
 * 0001–0099: accounts, sessions, second factors, service clients. 0100 and above: credentials and wallet.
 */
import type { Migrations } from '@xv/platform';
import { accounts } from './0001_accounts.js';
import { sessions } from './0002_sessions.js';
import { secondFactors } from './0003_second_factors.js';
import { serviceClients } from './0004_service_clients.js';
import { organizationSettings } from './0005_organization_settings.js';
import { accessRevocations } from './0006_access_revocations.js';
import { authenticatorAssurance } from './0007_authenticator_assurance.js';
import { mailAndInvitations } from './0008_mail_and_invitations.js';
import { accountConsole } from './0009_account_console.js';
import { securityLogRetention } from './0010_security_log_retention.js';
import { openidProvider } from './0011_openid_provider.js';
import { credentials } from './0100_credentials.js';
import { walletNonceBinding } from './0101_wallet_nonce_binding.js';
import { offerReferencesAndKeptCredentials } from './0102_offer_references_and_kept_credentials.js';

export const migrations: Migrations = {
  '0001_accounts': accounts,
  '0002_sessions': sessions,
  '0003_second_factors': secondFactors,
  '0004_service_clients': serviceClients,
  '0005_organization_settings': organizationSettings,
  '0006_access_revocations': accessRevocations,
  '0007_authenticator_assurance': authenticatorAssurance,
  '0008_mail_and_invitations': mailAndInvitations,
  '0009_account_console': accountConsole,
  '0010_security_log_retention': securityLogRetention,
  '0011_openid_provider': openidProvider,
  '0100_credentials': credentials,
  '0101_wallet_nonce_binding': walletNonceBinding,
  '0102_offer_references_and_kept_credentials': offerReferencesAndKeptCredentials,
};
