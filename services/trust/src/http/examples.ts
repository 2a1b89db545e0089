/**
 * @module http/examples
 * Examples for the API reference, recorded from a demo-mode seal of this service
 * and its verification (real hashes and signatures of the demo issuer).
 */

export const receiptExample = {
  receiptId: 'rcpt_ybq6ha7g7y4t1fzb8qjaat014g',
  outputHash: 'sha256-83df0dc2cf4d5efc0b24a87a5650c7e07cd6413133466d4595a00f5ca68fb56e',
  inputHash: 'sha256-63faad507c51256416e0ea6ded929b4349cd278514d0b33e49e8624d54126222',
  manifestHash: 'sha256-b86e86c5665a0a77666aa39b4a61be3bd6b3d50e456fbd0541408fb3b7bf32df',
  issuerId: 'org_demo',
  issuerName: 'XV Demo Organization',
  identityVerified: false,
  authLevel: 'AAL1',
  tier: 1,
  modelId: 'llama-3.1-8b-instruct',
  issuedAt: '2026-11-25T23:17:37.078Z',
  keyId: 'key_b4gfzr5ka9n556ps4xmn8f29dg',
  p256Sig: '_9rF8eSh-1-G4-agtP1_f613rKLBOgqXmtTi73Mrz1VN5Mzv5mAAPt-k7GkuYO_y7qDGZXaSciXdBCWIVGyJ3w',
  ethSig:
    '0x76d012bc110d69589e43cb10f9fc614be10709d4bbaeb74001ef51705dfddcc248d4fe872b38765d1964c4730fec467dc5ab4cb455b42d8e81aa20469a8951a51b',
  anchor: { mode: 'none' },
  manifest: {
    claim: {
      type: 'xv.seal.v1',
      receiptId: 'rcpt_ybq6ha7g7y4t1fzb8qjaat014g',
      modelId: 'llama-3.1-8b-instruct',
      outputHash: 'sha256-83df0dc2cf4d5efc0b24a87a5650c7e07cd6413133466d4595a00f5ca68fb56e',
      inputHash: 'sha256-63faad507c51256416e0ea6ded929b4349cd278514d0b33e49e8624d54126222',
      tier: 1,
      issuer: {
        orgId: 'org_demo',
        name: 'XV Demo Organization',
        did: 'did:web:localhost%3A4003:demo',
        identityVerified: false,
        keyId: 'key_b4gfzr5ka9n556ps4xmn8f29dg',
        ethAddress: '0xdC1f385834c2301CEE81BDB0769135c8C7FD2C7d',
      },
      authLevel: 'AAL1',
      issuedAt: '2026-11-25T23:17:37.078Z',
    },
    manifestHash: 'sha256-b86e86c5665a0a77666aa39b4a61be3bd6b3d50e456fbd0541408fb3b7bf32df',
    signatures: {
      p256Sig: '_9rF8eSh-1-G4-agtP1_f613rKLBOgqXmtTi73Mrz1VN5Mzv5mAAPt-k7GkuYO_y7qDGZXaSciXdBCWIVGyJ3w',
      ethSig:
        '0x76d012bc110d69589e43cb10f9fc614be10709d4bbaeb74001ef51705dfddcc248d4fe872b38765d1964c4730fec467dc5ab4cb455b42d8e81aa20469a8951a51b',
    },
  },
  verifyUrl: 'http://localhost:4003/verify/rcpt_ybq6ha7g7y4t1fzb8qjaat014g',
  proofUrl: 'http://localhost:4003/api/receipts/rcpt_ybq6ha7g7y4t1fzb8qjaat014g/proof',
};

export const verificationExample = {
  status: 'valid',
  valid: true,
  signatureValid: true,
  issuerVerified: true,
  integrity: 'intact',
  manifestHash: 'sha256-b86e86c5665a0a77666aa39b4a61be3bd6b3d50e456fbd0541408fb3b7bf32df',
  issuer: {
    orgId: 'org_demo',
    keyId: 'key_b4gfzr5ka9n556ps4xmn8f29dg',
    orgName: 'XV Demo Organization',
    verified: false,
  },
  checks: { manifestHash: true, p256Sig: true, ethSig: true },
  receiptId: 'rcpt_ybq6ha7g7y4t1fzb8qjaat014g',
  anchor: { onChain: false, txHash: null, mode: 'none' },
};

export const proofVerificationExample = {
  status: 'valid',
  valid: true,
  signatureValid: true,
  issuerVerified: true,
  integrity: 'intact',
  manifestHash: 'sha256-b86e86c5665a0a77666aa39b4a61be3bd6b3d50e456fbd0541408fb3b7bf32df',
  issuer: { orgId: 'org_demo', keyId: 'key_b4gfzr5ka9n556ps4xmn8f29dg' },
  checks: { manifestHash: true, p256Sig: true, ethSig: true },
};
