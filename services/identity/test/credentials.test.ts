import { getListFromStatusListJWT } from '@sd-jwt/jwt-status-list';
import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { compactVerify, decodeProtectedHeader, importJWK } from 'jose';
import { beforeAll, expect, it } from 'vitest';
import { splitSdJwt } from '../src/credentials/sd-jwt/sd-jwt.js';
import { createServiceClient, createUser, type SignedIn, signUp } from '../src/testing/index.js';
import {
  decodeHeader,
  decodePayload,
  issue,
  startCredentialIdentity,
  verify,
} from './credentials-helpers.js';
import { email, postJson } from './helpers.js';

describeEachDatabase('credentials: issue, verify, revoke, DID documents', (target) => {
  let svc: RunningService;
  let admin: SignedIn;
  let member: SignedIn;
  let orgId: string;
  let did: string;

  beforeAll(async () => {
    svc = await startCredentialIdentity(await target.open('identity'));
    admin = await signUp(svc.url, {
      email: email('vc-admin'),
      password: 'secret1',
      name: 'Ada Admin',
      orgName: 'Acme',
    });
    orgId = admin.session.memberships[0]!.org_id;
    member = await createUser(svc.url, admin.cookie, {
      email: email('vc-member'),
      password: 'secret1',
      name: 'Mo Member',
      role: 'member',
    });
    const url = new URL(svc.url);
    did = `did:web:${url.hostname}%3A${url.port}`;
  });

  it('issues an IdentityCredential with exactly the spec fields, typ dc+sd-jwt and a day-rounded iat', async () => {
    const { status, body } = await issue(svc, admin.cookie, { type: 'IdentityCredential' });
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(
      ['claims', 'expiresAt', 'id', 'issuedAt', 'issuer', 'sdjwt', 'subject', 'type', 'vct'].sort(),
    );
    expect(body).toMatchObject({
      id: expect.stringMatching(/^vc_/),
      type: 'IdentityCredential',
      vct: `${svc.url}/vc/IdentityCredential`,
      issuer: did,
      subject: `${did}:u:${admin.session.user.id}`,
      claims: { email: admin.session.user.email, name: 'Ada Admin' },
    });
    expect(decodeHeader(body.sdjwt)).toMatchObject({
      alg: 'ES256',
      typ: 'dc+sd-jwt',
      kid: expect.stringMatching(`^${did}#key-`),
    });
    const payload = decodePayload(body.sdjwt);
    expect((payload.iat! as number) % 86_400).toBe(0);
    expect(body.issuedAt).toBe(new Date((payload.iat as number) * 1000).toISOString());
    expect(payload.exp).toBe(body.expiresAt);
    // e-mail and name travel only as Disclosures; iss, vct and status stay in the clear.
    expect(JSON.stringify(payload)).not.toContain(admin.session.user.email);
    expect(payload).toMatchObject({ iss: did, vct: body.vct, _sd_alg: 'sha-256' });
    expect(payload.status).toMatchObject({
      status_list: { idx: expect.any(Number), uri: expect.stringMatching(`^${svc.url}/status/`) },
    });
    expect(splitSdJwt(body.sdjwt).disclosures).toHaveLength(2);
  });

  it('verifies its own credential (any origin) and reports the disclosed claims', async () => {
    const { body: credential } = await issue(svc, member.cookie, { type: 'IdentityCredential' });
    const response = await svc.fetch('/api/did/verify', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://verifier.example' },
      body: JSON.stringify({ token: credential.sdjwt }),
    });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const body = await response.json();
    expect(body).toMatchObject({
      valid: true,
      iss: did,
      sub: credential.subject,
      vct: credential.vct,
      exp: credential.expiresAt,
      payload: { email: member.session.user.email, name: 'Mo Member' },
    });
    expect(typeof body.iat).toBe('number');
  });

  it('accepts sdjwt and credential as names of the token, and answers 400 when none is given', async () => {
    const { body: credential } = await issue(svc, member.cookie, { type: 'IdentityCredential' });
    expect((await verify(svc, { sdjwt: credential.sdjwt })).body.valid).toBe(true);
    expect((await verify(svc, { credential: credential.sdjwt })).body.valid).toBe(true);
    const missing = await verify(svc, { nonce: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ ok: false, error: 'credential_required' });
    expect((await verify(svc, { token: 42 })).status).toBe(400);
  });

  it('verifies a presentation that leaves a claim out', async () => {
    const { body: credential } = await issue(svc, member.cookie, { type: 'IdentityCredential' });
    const { jwt, disclosures } = splitSdJwt(credential.sdjwt);
    const nameOnly = disclosures.filter((d) => Buffer.from(d, 'base64url').toString().includes('"name"'));
    const { body } = await verify(svc, { token: `${jwt}~${nameOnly[0]}~` });
    expect(body.valid).toBe(true);
    expect(body.payload.name).toBe('Mo Member');
    expect(body.payload.email).toBeUndefined();
  });

  it('states the subject as it is now: a renamed person gets the new name at once', async () => {
    const renamed = await createUser(svc.url, admin.cookie, {
      email: email('vc-renamed'),
      password: 'secret1',
      name: 'Old Name',
      role: 'member',
    });
    expect((await issue(svc, renamed.cookie, { type: 'IdentityCredential' })).body.claims.name).toBe(
      'Old Name',
    );
    expect((await postJson(svc, '/api/account/profile', { name: 'New Name' }, renamed.cookie)).status).toBe(
      200,
    );
    const { body } = await issue(svc, renamed.cookie, { type: 'IdentityCredential' });
    expect(body.claims).toEqual({ email: renamed.session.user.email, name: 'New Name' });
  });

  it('issues a MembershipCredential for a member, in their active organization', async () => {
    const { status, body } = await issue(svc, member.cookie, { type: 'MembershipCredential', org_id: orgId });
    expect(status).toBe(200);
    expect(body.claims).toEqual({
      org_id: orgId,
      org_name: 'Acme',
      org_did: `${did}:o:${orgId}`,
      role: 'member',
    });
    expect(body.subject).toBe(`${did}:u:${member.session.user.id}`);
  });

  it('refuses a MembershipCredential for an organization the caller does not belong to', async () => {
    const stranger = await signUp(svc.url, {
      email: email(),
      password: 'secret1',
      name: 'S',
      orgName: 'Other',
    });
    const { status, body } = await issue(svc, stranger.cookie, {
      type: 'MembershipCredential',
      org_id: orgId,
    });
    expect(status).toBe(403);
    expect(body.error).toBe('not_a_member');
  });

  it('lets an admin issue an OrganizationAttestation with extra claims, and not a mere member', async () => {
    const { status, body } = await issue(svc, admin.cookie, {
      type: 'OrganizationAttestation',
      org_id: orgId,
      claims: { tier: 'gold', seats: 12 },
    });
    expect(status).toBe(200);
    expect(body.subject).toBe(`${did}:o:${orgId}`);
    expect(body.claims).toMatchObject({
      org_id: orgId,
      name: 'Acme',
      realm: 'default',
      verified: false,
      claims: { tier: 'gold', seats: 12 },
    });
    expect((await verify(svc, { token: body.sdjwt })).body.payload.claims).toEqual({
      tier: 'gold',
      seats: 12,
    });
    const denied = await issue(svc, member.cookie, { type: 'OrganizationAttestation', org_id: orgId });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('admin_required');
  });

  it('answers unknown types, claims on the wrong type and hostile claim names with 400', async () => {
    expect((await issue(svc, admin.cookie, { type: 'PassportCredential' })).body.error).toBe('unknown_type');
    expect(
      (await issue(svc, admin.cookie, { type: 'IdentityCredential', claims: { a: 1 } })).body.error,
    ).toBe('claims_not_allowed');
    expect((await issue(svc, admin.cookie, { type: 'OrganizationAttestation' })).body.error).toBe(
      'org_required',
    );
    for (const claims of [
      { _sd: ['x'] },
      { '...': 1 },
      Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i])),
    ]) {
      const { status, body } = await issue(svc, admin.cookie, {
        type: 'OrganizationAttestation',
        org_id: orgId,
        claims,
      });
      expect(status).toBe(400);
      expect(body.error).toBe('invalid_claims');
    }
    expect((await issue(svc, '', { type: 'IdentityCredential' })).status).toBe(401);
  });

  it('lets a service client with did:issue attest its organization, and nothing else', async () => {
    const client = await createServiceClient(svc.url, admin.cookie, {
      name: 'sealer',
      scopes: ['did:issue'],
      org_id: orgId,
    });
    const bearer = { authorization: `Bearer ${client.token}` };
    const ok = await postJson(
      svc,
      '/api/did/issue',
      { type: 'OrganizationAttestation', org_id: orgId, claims: { sealed: true } },
      undefined,
      bearer,
    );
    expect(ok.status).toBe(200);
    const other = await signUp(svc.url, {
      email: email(),
      password: 'secret1',
      name: 'O',
      orgName: 'Elsewhere',
    });
    const otherOrg = other.session.memberships[0]!.org_id;
    const wrongOrg = await postJson(
      svc,
      '/api/did/issue',
      { type: 'OrganizationAttestation', org_id: otherOrg },
      undefined,
      bearer,
    );
    expect(wrongOrg.status).toBe(403);
    const person = await postJson(svc, '/api/did/issue', { type: 'IdentityCredential' }, undefined, bearer);
    expect(person.status).toBe(403);
    const noScope = await createServiceClient(svc.url, admin.cookie, {
      name: 'reader',
      scopes: ['seal:issue'],
      org_id: orgId,
    });
    const refused = await postJson(
      svc,
      '/api/did/issue',
      { type: 'OrganizationAttestation', org_id: orgId },
      undefined,
      {
        authorization: `Bearer ${noScope.token}`,
      },
    );
    expect(refused.status).toBe(403);
    const forged = await postJson(
      svc,
      '/api/did/issue',
      { type: 'OrganizationAttestation', org_id: orgId },
      undefined,
      {
        authorization: 'Bearer xsc_not-a-token',
      },
    );
    expect(forged.status).toBe(401);
  });

  it('revokes for the owner and publishes it in the status list any verifier can read', async () => {
    const { body: credential } = await issue(svc, member.cookie, { type: 'IdentityCredential' });
    const { status_list: reference } = decodePayload(credential.sdjwt).status as {
      status_list: { idx: number; uri: string };
    };
    const statusOf = async () => {
      const response = await fetch(reference.uri, { headers: { origin: 'https://verifier.example' } });
      expect(response.headers.get('content-type')).toContain('application/statuslist+jwt');
      const jwt = await response.text();
      const header = decodeProtectedHeader(jwt);
      expect(header).toMatchObject({ typ: 'statuslist+jwt', alg: 'ES256' });
      return getListFromStatusListJWT(jwt).getStatus(reference.idx);
    };
    expect(await statusOf()).toBe(0);

    const revoke = await postJson(svc, '/api/did/revoke', { id: credential.id }, member.cookie);
    expect(revoke.status).toBe(200);
    expect(await revoke.json()).toEqual({ ok: true });
    expect(await statusOf()).toBe(1);
    expect((await verify(svc, { token: credential.sdjwt })).body).toMatchObject({
      valid: false,
      reason: 'revoked',
    });
    // Revoking twice is harmless.
    expect((await postJson(svc, '/api/did/revoke', { id: credential.id }, member.cookie)).status).toBe(200);
  });

  it('refuses a revocation by someone else, and lets org admins revoke their organization attestations', async () => {
    const { body: mine } = await issue(svc, member.cookie, { type: 'IdentityCredential' });
    const byAdmin = await postJson(svc, '/api/did/revoke', { id: mine.id }, admin.cookie);
    expect(byAdmin.status).toBe(403);
    expect((await byAdmin.json()).error).toBe('not_credential_owner');
    expect((await verify(svc, { token: mine.sdjwt })).body.valid).toBe(true);

    const { body: attestation } = await issue(svc, admin.cookie, {
      type: 'OrganizationAttestation',
      org_id: orgId,
    });
    expect((await postJson(svc, '/api/did/revoke', { id: attestation.id }, member.cookie)).status).toBe(403);
    expect((await postJson(svc, '/api/did/revoke', { id: attestation.id }, admin.cookie)).status).toBe(200);
    expect(
      (await postJson(svc, '/api/did/revoke', { id: 'vc_00000000000000000000000000' }, admin.cookie)).status,
    ).toBe(404);
    expect((await postJson(svc, '/api/did/revoke', { id: mine.id })).status).toBe(401);
  });

  it('publishes type metadata for any origin, and 404 for an unknown type', async () => {
    const response = await svc.fetch('/vc/MembershipCredential', {
      headers: { origin: 'https://wallet.example' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(['claims', 'description', 'name', 'vct']);
    expect(body.vct).toBe(`${svc.url}/vc/MembershipCredential`);
    expect(body.claims.role).toEqual({ name: 'Role', required: true });
    expect((await svc.fetch('/vc/Nope')).status).toBe(404);
  });

  it('publishes did:web documents and verifies a credential with jose alone against the DID key', async () => {
    const { body: credential } = await issue(svc, admin.cookie, { type: 'IdentityCredential' });
    const document = await (await svc.fetch('/.well-known/did.json')).json();
    expect(document.id).toBe(did);
    const { jwt } = splitSdJwt(credential.sdjwt);
    const kid = decodeProtectedHeader(jwt).kid;
    const method = document.verificationMethod.find((m: { id: string }) => m.id === kid);
    expect(document.assertionMethod).toContain(kid);
    const key = await importJWK(method.publicKeyJwk, 'ES256');
    const { payload, protectedHeader } = await compactVerify(jwt, key, { algorithms: ['ES256'] });
    expect(protectedHeader.typ).toBe('dc+sd-jwt');
    expect(JSON.parse(new TextDecoder().decode(payload)).iss).toBe(document.id);

    const orgDocument = await (await svc.fetch(`/o/${orgId}/did.json`)).json();
    expect(orgDocument).toMatchObject({ id: `${did}:o:${orgId}`, controller: did, assertionMethod: [kid] });
    const userDocument = await (await svc.fetch(`/u/${admin.session.user.id}/did.json`)).json();
    expect(userDocument.id).toBe(`${did}:u:${admin.session.user.id}`);
    expect((await svc.fetch('/o/org_00000000000000000000000000/did.json')).status).toBe(404);

    // No metadata names an issuer other than the credentials' iss (the DID).
    expect((await svc.fetch('/.well-known/jwt-vc-issuer')).status).toBe(404);
  });
});
