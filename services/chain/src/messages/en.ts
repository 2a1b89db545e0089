/** What the chain explorer's pages say, in English: the lookup form and a transaction's page. */
export const en = {
  // The explorer's home: look a transaction up.
  'explorer.title': 'Explorer',
  'explorer.heading': 'Chain explorer',
  'explorer.apiReference': 'API reference',
  'explorer.intro':
    'The XV relayer anchors the fingerprints of sealed receipts on this chain. Look up one of its transactions by hash; a receipt’s verification page links to its own.',
  'explorer.hash': 'Transaction hash',
  'explorer.lookUp': 'Look up',
  'explorer.invalidHash': 'Enter a transaction hash: 0x and 64 hex digits.',
  // One transaction.
  'tx.title': 'Transaction {hash}…',
  'tx.heading': 'Transaction',
  'tx.hash': 'Hash',
  'tx.chainId': 'Chain id',
  'tx.status': 'Status',
  'tx.status.success': 'Succeeded',
  'tx.status.reverted': 'Reverted',
  'tx.status.pending': 'Pending',
  'tx.block': 'Block',
  'tx.notMined': 'not yet mined',
  'tx.minedAt': 'Mined at',
  'tx.confirmations': 'Confirmations',
  'tx.from': 'From',
  'tx.byRelayer': '(the XV relayer)',
  'tx.to': 'To',
  'tx.contractCreation': '(contract creation)',
  'tx.nonce': 'Nonce',
  'tx.data': 'Data',
  // What an anchor carries, in words.
  'anchor.batch.one':
    'This transaction anchors the Merkle root of a batch of {count} fingerprint: the SHA-256 manifest hash of a receipt sealed by the XV trust service. The receipt’s proof carries the path from its own hash up to this root.',
  'anchor.batch.other':
    'This transaction anchors the Merkle root of a batch of {count} fingerprints: SHA-256 manifest hashes of receipts sealed by the XV trust service. Each receipt’s proof carries the path from its own hash up to this root.',
  'anchor.single':
    'This transaction anchors one fingerprint: a SHA-256 manifest hash sealed by the XV trust service.',
  'anchor.root': 'Merkle root',
  'anchor.fingerprint': 'Fingerprint',
  'anchor.mined': 'Mined',
  'anchor.inBlock': 'in block {block}',
  'anchor.notMined': 'Not mined yet.',
} as const;
