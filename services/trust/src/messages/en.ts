/**
 * What the trust service's pages and browser scripts say, in English. `{name}`
 * placeholders are filled in; on the pages some are links or code (`richText` from @xv/platform/pages).
 */
export const en = {
  // The frame of every trust page.
  'frame.nav.verify': 'Verify a proof',
  'frame.footer': 'Proofs are signed with P-256 and secp256k1; public keys at {keys}.',

  // `/verify` and `/`: a proof file checked in the browser.
  'drop.title': 'Verify a proof',
  'drop.heading': 'Verify a proof file',
  'drop.intro':
    "The file is checked here, in your browser: it is never uploaded. Only the issuers' public keys are fetched from this site.",
  'drop.zone': 'Drop a proof file here, or',
  'drop.choose': 'choose a proof file (.json):',
  'drop.result': 'Verification result',

  // What client/verify.ts writes under the verdict.
  'check.checking': 'Checking {name}…',
  'check.failed': '✘ The proof could not be checked: {error}',
  'check.manifestHash': 'Manifest hash',
  'check.issuerNamed': 'Issuer named in the proof',
  'check.keyPublished': 'Key published by that issuer',
  'check.yes': 'yes',
  'check.no': 'no',
  'check.p256': 'P-256 signature',
  'check.secp256k1': 'secp256k1 signature',
  'check.signature.valid': 'valid',
  'check.signature.invalid': 'invalid',
  'check.anchorPath': 'Anchor path',
  'check.anchorPath.leads': 'leads to the root {root}',
  'check.anchorPath.broken': 'does not lead to the root it names ({problem})',
  'check.anchored': 'Anchored on chain',
  'check.anchored.yes.one': 'yes, {count} confirmation, transaction {tx}',
  'check.anchored.yes.other': 'yes, {count} confirmations, transaction {tx}',
  'check.anchored.no': 'no ({problem})',

  // A verdict, on the pages and in the browser; `{issuer}` is the organization the proof names.
  'verdict.theIssuer': 'the issuer',
  'verdict.valid':
    '✔ Valid: the signatures match and the record is intact. It was signed with a key {issuer} published.',
  'verdict.notValid': '✘ Not valid: {words}',
  'verdict.reason.tampered': 'The manifest was changed after it was sealed.',
  'verdict.reason.bad_signature':
    'A signature does not match the key {issuer} published — this proof cannot be shown to come from {issuer}.',
  'verdict.reason.unknown_issuer':
    '{issuer} has published no keys here — nothing shows that this proof comes from {issuer}.',
  'verdict.reason.unknown_issuer_key':
    'Signed by a key {issuer} never published — this proof is not from {issuer}.',
  'verdict.reason.demo_issuer':
    'Signed by the demo issuer, which this site trusts only in demo mode — this is not a proof from a real organization.',
  'verdict.reason.key_retired':
    '{issuer} had retired the key that signed this before the date the proof claims — it is not valid.',
  'verdict.reason.key_not_yet_valid':
    'The proof claims no date, or a date before {issuer} created the key that signed it — it is not valid.',
  'verdict.malformed.notJson': 'The file is not JSON.',
  'verdict.malformed.notProof': 'The file is not an XV proof ({claim, signatures}).',
  'verdict.malformed.extraFields': 'The proof has unexpected fields: {fields}',

  // `/verify/<receipt id>`.
  'receipt.title': 'Receipt {id}',
  'receipt.heading': 'Seal receipt',
  'receipt.issuer': 'Issuer',
  'receipt.organization': 'Organization',
  'receipt.identityVerified': 'Identity verified',
  'receipt.identityVerified.yes': 'Yes (KYC verified)',
  'receipt.identityVerified.no': 'No',
  'receipt.signInLevel': 'Sign-in level',
  'receipt.record': 'Record',
  'receipt.receipt': 'Receipt',
  'receipt.model': 'Model',
  'receipt.tier': 'Tier',
  'receipt.issuedAt': 'Issued at',
  'receipt.outputHash': 'Output hash',
  'receipt.inputHash': 'Input hash',
  'receipt.manifestHash': 'Manifest hash',
  'receipt.integrity': 'Integrity',
  'receipt.integrity.intact': 'intact',
  'receipt.integrity.tampered': 'changed after it was sealed',
  'receipt.integrity.unverified': 'not checked',
  'receipt.anchor': 'Blockchain anchor',
  'receipt.selfCheck':
    '{download} and check it yourself on the {checker} or with the steps in the proof format documentation.',
  'receipt.download': 'Download the proof file',
  'receipt.checker': 'proof checker',

  // The receipt page's content check (client/content.ts).
  'content.heading': 'Check the original content',
  'content.intro':
    'Paste the sealed text, or drop the original file: its SHA-256 is computed in your browser and compared with the sealed hash. The content is never sent anywhere.',
  'content.paste': 'Paste the content',
  'content.checkPasted': 'Check the pasted text',
  'content.file': 'or drop or choose the original file (its exact bytes are hashed):',
  'content.noscript':
    'Without JavaScript, compute the SHA-256 of the file yourself (for example {command}) and compare it with the output hash above.',
  'content.checking': 'Checking…',
  'content.pasted': 'The pasted text',
  'content.namedFile': 'The file {name}',
  'content.noMatch': '✘ {what} does not match the sealed content: its SHA-256 is {hash}.',
  'content.match.output': '✔ {what} matches the sealed content: it is exactly what was sealed.',
  'content.match.input': '✔ {what} matches the sealed content (the input): it is exactly what was sealed.',
  'content.match.output.json':
    '✔ {what} matches the sealed content (as JSON, in its canonical RFC 8785 form): it is exactly what was sealed.',
  'content.match.input.json':
    '✔ {what} matches the sealed content (the input, as JSON, in its canonical RFC 8785 form): it is exactly what was sealed.',
  'content.failed': '✘ The content could not be checked: {error}',

  // A receipt's anchor.
  'anchor.none': 'This receipt is not anchored on a blockchain (yet).',
  'anchor.batched':
    'The manifest hash was anchored in a batch: the transaction carries the Merkle root of the batch, and the path below leads from this receipt to that root.',
  'anchor.direct': 'The manifest hash itself was written to the chain in the transaction below.',
  'anchor.onChain': 'On chain',
  'anchor.onChain.yes.one': 'Yes, {count} confirmation',
  'anchor.onChain.yes.other': 'Yes, {count} confirmations',
  'anchor.onChain.no': 'Not yet ({problem})',
  'anchor.transaction': 'Transaction',
  'anchor.block': 'Block',
  'anchor.root': 'Batch root',
  'anchor.path': 'Merkle path',
  'anchor.steps.one': '{count} step',
  'anchor.steps.other': '{count} steps',
  // Why an anchor is not (yet) on the chain, by its problem code.
  'anchor.problem.pending': 'waiting to be included in a block',
  'anchor.problem.not_found': 'the chain does not know the transaction',
  'anchor.problem.reverted': 'the transaction was reverted',
  'anchor.problem.wrong_data': 'the transaction carries another hash',
  'anchor.problem.wrong_sender': 'the transaction was not sent by XV’s relayer',
  'anchor.problem.chain_unreachable': 'the chain cannot be reached',
  'anchor.problem.wrong_ref': 'the anchor names another proof',
  'anchor.problem.wrong_path': 'the path does not lead to the root',
  'anchor.problem.malformed': 'the anchor is malformed',

  // `/verify/<attestation id>`.
  'attestation.title': 'Attestation {id}',
  'attestation.heading': 'Attestation',
  'attestation.valid': '✔ Valid: the EIP-712 signature recovers to a key {issuer} published.',
  'attestation.issuer': 'Issuer',
  'attestation.unnamedIssuer': 'an organization the identity service does not name',
  'attestation.attester': 'Attester address',
  'attestation.schema': 'Schema',
  'attestation.subject': 'Subject',
  'attestation.digest': 'Claim digest',
  'attestation.signed': 'The signed EAS off-chain attestation (version 2) is at {link}.',

  // `/verify/<anything else>`.
  'notFound.title': 'Not found',
  'notFound.heading': 'Nothing to verify here',
  'notFound.none': 'No receipt or attestation has the id {id}.',
  'notFound.checker': 'Have a proof file? Check it on the {checker}.',
} as const;
