/**
 * @module routes/pages
 * The public pages: `/verify` (check a proof file in the browser) and
 * `/verify/<receipt_id>` (a receipt's verification, or an attestation's).
 */
import { type App, cspNonce } from '@xv/platform/http';
import type { Attestations } from '../attestations/attestations.js';
import { attestationPage, dropPage, notFoundPage, receiptPage } from '../pages/verify-pages.js';
import type { Receipts } from '../seal/receipts.js';

const RECEIPT = /^rcpt_[0-9a-z]{26}$/;
const ATTESTATION = /^att_[0-9a-z]{26}$/;

export function registerPages(app: App, o: { receipts: Receipts; attestations: Attestations }) {
  app.get('/', (c) => c.redirect('/verify'));
  app.get('/verify', (c) => c.html(dropPage(cspNonce(c))));
  app.get('/verify/:id', async (c) => {
    const id = c.req.param('id');
    if (RECEIPT.test(id)) {
      const row = await o.receipts.find(id).catch(() => null);
      if (row) return c.html(receiptPage(o.receipts.view(row), await o.receipts.verifyReceipt(id)));
    } else if (ATTESTATION.test(id)) {
      const found = await o.attestations.find(id).catch(() => null);
      if (found)
        return c.html(
          attestationPage({
            attestationId: found.row.attestation_id,
            issuerId: found.row.org_id,
            schema: found.row.schema,
            subject: found.row.subject,
            digest: found.row.digest,
            uid: found.row.uid,
            attester: found.row.attester,
            valid: found.valid,
            ...(found.reason ? { reason: found.reason } : {}),
          }),
        );
    }
    return c.html(notFoundPage(id), 404);
  });
}
