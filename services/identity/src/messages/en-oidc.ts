/**
 * What "Sign in with XV" says, in English: the consent page and what each scope shares, the provider's own
 * pages (sign out, device sign-in, errors) and the account page's cards of apps.
 */
export const enOidc = {
  // What the consent page says each scope shares.
  'oidc.scope.openid': 'Know who you are (your XV account id)',
  'oidc.scope.profile': 'See your name',
  'oidc.scope.email': 'See your e-mail address and whether it is verified',
  'oidc.scope.organizations': 'See the organizations you belong to and your role in each',
  'oidc.scope.offline_access': 'Stay signed in to the app when you are away',
  'oidc.scope.sync': 'Push documents to your organization’s knowledge base for review',
  'oidc.scope.ai:read': 'Search your organization’s knowledge base',

  'oidc.consent.title': 'Allow {app}?',
  'oidc.consent.heading': 'Allow {app} to use your XV account?',
  'oidc.consent.registeredItself':
    '{app} registered itself: no organization vouches for it. You are signed in as {email}.',
  'oidc.consent.registeredBy': '{app} is registered by {organization}. You are signed in as {email}.',
  'oidc.consent.scopesLabel': 'If you allow it, {app} can:',
  'oidc.consent.takeBack':
    'You can take this back at any time under "Apps you allowed" on your account page.',
  'oidc.consent.allow': 'Allow',
  'oidc.consent.deny': 'Deny',
  'oidc.consent.desktopApp': 'XV desktop client (xv kb)',
  'oidc.consent.someOrganization': 'an organization',

  'oidc.continue.title': 'Continuing',
  'oidc.continue.heading': 'Continuing…',
  'oidc.continue.link': 'Continue',

  'oidc.logout.title': 'Sign out?',
  'oidc.logout.askedBy': '{app} asks to sign you out. Sign out of XV on this browser, or only of the app?',
  'oidc.logout.askedByApp':
    'An app asks to sign you out. Sign out of XV on this browser, or only of the app?',
  'oidc.logout.everywhere': 'Sign out of XV',
  'oidc.logout.appOnly': 'Only of the app',
  'oidc.loggedOut.title': 'Signed out',
  'oidc.loggedOut.fromApp': 'You are signed out of {app}.',
  'oidc.loggedOut.message': 'You are signed out.',
  'oidc.loggedOut.signInAgain': 'Sign in again',

  'oidc.device.title': 'Sign in a device',
  'oidc.device.intro': 'Enter the code your device shows (for example in the terminal after `xv kb login`).',
  'oidc.device.invalid': 'That code is not valid or has expired: check it and try again.',
  'oidc.device.code': 'Enter code',
  'oidc.device.continue': 'Continue',
  'oidc.deviceConfirm.title': 'Confirm the device',
  'oidc.deviceConfirm.asks': '{app} asks to sign in. Continue only if your device shows this code:',
  'oidc.deviceConfirm.anApp': 'An app',
  'oidc.deviceConfirm.cancel': 'Cancel',
  'oidc.deviceSuccess.title': 'Device signed in',
  'oidc.deviceSuccess.message': '{app} is signed in. You can close this page.',
  'oidc.deviceSuccess.theDevice': 'The device',

  // The provider's error page: the wording of the protocol's error code, the code itself after it.
  'oidc.error.title': 'The app’s sign-in request cannot be completed',
  'oidc.error.generic': 'The request is not valid.',
  'oidc.error.invalid_request': 'The app’s request is not valid.',
  'oidc.error.invalid_client': 'The app is not registered with XV, or it was removed.',
  'oidc.error.invalid_redirect_uri': 'The app asked to come back to an address it did not register.',
  'oidc.error.invalid_scope': 'The app asked for access it may not ask for.',
  'oidc.error.unauthorized_client': 'The app may not sign in this way.',
  'oidc.error.unsupported_response_type': 'The app asked for an answer XV does not give.',
  'oidc.error.invalid_target': 'The app asked for access to a service XV does not know.',
  'oidc.error.access_denied': 'Access was refused.',
  'oidc.error.server_error': 'Something went wrong on XV’s side: try again later.',
  'oidc.expired.title': 'This sign-in has expired',
  'oidc.expired.message':
    'The app’s sign-in request is over or was made in another browser. Go back to the app and start again.',
  'oidc.noRealm.title': 'Not found',
  'oidc.noRealm.message': 'There is no such realm.',

  // The account page's cards.
  'oidc.allowed.title': 'Apps you allowed',
  'oidc.allowed.none': 'You have not allowed any app to sign you in with XV.',
  'oidc.allowed.selfRegistered': '{app} (registered itself)',
  'oidc.allowed.row': '{app} can see: {scopes}. Allowed {when}.',
  'oidc.allowed.revoke.summary': 'Remove access…',
  'oidc.allowed.revoke.wording': '{app} will no longer be able to use your account; it signs you out there.',
  'oidc.allowed.revoke.button': 'Remove access',
  'oidc.allowed.revoke.done': 'Access removed.',
  'oidc.apps.title': 'Sign in with XV: your organization’s apps',
  'oidc.apps.kind.confidential': 'confidential',
  'oidc.apps.kind.public': 'public',
  'oidc.apps.remove.summary': 'Remove…',
  'oidc.apps.remove.wording':
    '{app} can no longer sign anyone in; everyone signed in there through XV is signed out.',
  'oidc.apps.remove.button': 'Remove the app',
  'oidc.apps.remove.done': 'App removed.',
  'oidc.apps.register': 'Register an app',
  'oidc.apps.name': 'Name shown to people',
  'oidc.apps.kind': 'Kind',
  'oidc.apps.kindConfidential': 'Runs on a server (gets a secret)',
  'oidc.apps.kindPublic': 'Runs in a browser or on a device (no secret, PKCE)',
  'oidc.apps.redirects': 'Redirect URIs, one per line (matched exactly)',
  'oidc.apps.logoutRedirects': 'Where to go after signing out, one per line (optional)',
  'oidc.apps.logo': 'Logo URL (https, optional)',
  'oidc.apps.scopes': 'What the app may ask for',
  'oidc.apps.submit': 'Register the app',
  'oidc.registered.title': 'App registered',
  'oidc.registered.heading': '{app} is registered',
  'oidc.registered.discovery': 'Discovery URL',
  'oidc.registered.clientId': 'Client id',
  'oidc.registered.secret': 'Client secret (shown only now: copy it into the app’s configuration)',
  'oidc.registered.back': 'Back to your account',

  'error.oidc_client_not_found': 'No app of your organization has that client id.',
  'error.consent_not_found': 'You have not allowed an app with that client id.',
  'error.invalid_redirect_uri':
    'A redirect URI must be an absolute https URL (http only on a loopback host, or a private-use scheme such as com.example.app: for a public app), without a fragment.',
} as const;
