/**
 * @module service
 * The identity service: its settings, migrations and routes.
 */
import { defineService } from '@xv/platform';
import { migrations } from './migrations/index.js';

export const identityService = defineService({
  name: 'identity',
  description:
    'Multi-realm customer identity: the shared sign-in session, 2FA, step-up, organizations, service clients and verifiable credentials.',
  migrations,
  setup() {},
});
