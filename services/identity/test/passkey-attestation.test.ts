/**
 * `XV_IDENTITY_PASSKEY_TRUSTED_ROOTS`: with trusted attestation roots set, only a passkey whose attestation
 * chains to one of them is registered. The certificates are made here with the `openssl` command.
 */
import { execFileSync } from 'node:child_process';
import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeEachDatabase, type RunningService, tempDir } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { registerPasskey, SoftwareAuthenticator, startIdentity } from '../src/testing/index.js';
import { PASSWORD, postJson, signUpAdmin } from './helpers.js';

interface AttestationCa {
  rootPem: string;
  /** A P-256 attestation key and its certificate (DER), issued by this root. */
  attestation: { certificates: Uint8Array[]; privateKey: KeyObject };
}

/** A root CA and an attestation certificate of the form WebAuthn's `packed` format asks for (§8.2.1). */
function attestationCa(dir: string, name: string): AttestationCa {
  const file = (f: string) => join(dir, `${name}-${f}`);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  openssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', file('root.key'));
  openssl(
    'req',
    '-x509',
    '-new',
    '-key',
    file('root.key'),
    '-days',
    '2',
    '-out',
    file('root.pem'),
    '-subj',
    `/C=DE/O=${name}/CN=${name} Root`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign',
  );
  openssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', file('leaf.key'));
  openssl(
    'req',
    '-new',
    '-key',
    file('leaf.key'),
    '-out',
    file('leaf.csr'),
    '-subj',
    `/C=DE/O=${name}/OU=Authenticator Attestation/CN=${name} Key`,
  );
  writeFileSync(file('leaf.ext'), 'basicConstraints=critical,CA:FALSE\n');
  openssl(
    'x509',
    '-req',
    '-in',
    file('leaf.csr'),
    '-CA',
    file('root.pem'),
    '-CAkey',
    file('root.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    file('leaf.ext'),
    '-out',
    file('leaf.pem'),
  );
  return {
    rootPem: readFileSync(file('root.pem'), 'utf8'),
    attestation: {
      certificates: [new X509Certificate(readFileSync(file('leaf.pem'))).raw],
      privateKey: createPrivateKey(readFileSync(file('leaf.key'))),
    },
  };
}

describeEachDatabase('passkey attestation against trusted roots', (target) => {
  let svc: RunningService;
  let trusted: AttestationCa;
  let rogue: AttestationCa;
  beforeAll(async () => {
    const dir = tempDir();
    trusted = attestationCa(dir, 'Trusted Keys');
    rogue = attestationCa(dir, 'Rogue Keys');
    const rootsFile = join(dir, 'roots.pem');
    writeFileSync(rootsFile, trusted.rootPem);
    svc = await startIdentity(await target.open('identity'), {
      XV_IDENTITY_PASSKEY_TRUSTED_ROOTS: rootsFile,
    });
  });

  const rejected = async (authenticator: SoftwareAuthenticator) => {
    const person = await signUpAdmin(svc.url);
    await expect(
      registerPasskey(svc.url, person.cookie, authenticator, { password: PASSWORD }),
    ).rejects.toThrow(/400.*passkey_rejected/);
  };

  it('asks authenticators for direct attestation', async () => {
    const person = await signUpAdmin(svc.url);
    const options = await postJson(
      svc,
      '/api/auth/passkey/register/options',
      { password: PASSWORD },
      person.cookie,
    );
    expect(await options.json()).toMatchObject({ attestation: 'direct' });
  });

  it('a passkey without attestation is refused', async () => {
    await rejected(new SoftwareAuthenticator());
  });

  it('a passkey attested by a root the operator does not trust is refused', async () => {
    await rejected(new SoftwareAuthenticator({ attestation: rogue.attestation }));
  });

  it('a passkey attested with a trusted certificate but signed by another key is refused', async () => {
    await rejected(
      new SoftwareAuthenticator({
        attestation: {
          certificates: trusted.attestation.certificates,
          privateKey: rogue.attestation.privateKey,
        },
      }),
    );
  });

  it('a passkey attested by a trusted root is registered', async () => {
    const person = await signUpAdmin(svc.url);
    const authenticator = new SoftwareAuthenticator({ attestation: trusted.attestation });
    expect(
      await registerPasskey(svc.url, person.cookie, authenticator, { password: PASSWORD }),
    ).toMatchObject({
      aal: 'AAL3',
    });
  });

  it('a roots setting that names no readable certificate stops the service at start-up', async () => {
    for (const value of [
      join(tempDir(), 'missing.pem'),
      '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----',
    ])
      await expect(
        startIdentity(await target.open('identity'), { XV_IDENTITY_PASSKEY_TRUSTED_ROOTS: value }),
      ).rejects.toThrow(/XV_IDENTITY_PASSKEY_TRUSTED_ROOTS/);
  });
});
