/**
 * @module anchoring/budget
 * The per-organization daily budget of immediate anchors: each one is a transaction
 * of its own that the relayer pays for, so an organization gets `perDay` of them per
 * UTC day (`XV_TRUST_ANCHOR_DAILY_BUDGET`); everything else joins a batch.
 */
import type { TrustDb } from '../db.js';
import { errors } from '../errors.js';

export class AnchorBudget {
  constructor(
    private readonly db: TrustDb,
    private readonly perDay: number,
  ) {}

  /**
   * Takes one immediate anchor from the organization's budget of today, or throws 429
   * `anchor_budget_exhausted`. One statement counts and checks, so concurrent requests
   * (on any number of trust instances sharing the database) cannot overspend.
   */
  async spend(orgId: string, now = new Date()): Promise<void> {
    const day = now.toISOString().slice(0, 10);
    const taken =
      this.perDay > 0 &&
      (await this.db
        .insertInto('anchor_budget')
        .values({ org_id: orgId, day, used: 1 })
        .onConflict((conflict) =>
          conflict
            .columns(['org_id', 'day'])
            .doUpdateSet((eb) => ({ used: eb('anchor_budget.used', '+', 1) }))
            .where('anchor_budget.used', '<', this.perDay),
        )
        .returning('used')
        .executeTakeFirst());
    if (!taken)
      throw errors.anchor_budget_exhausted(
        `The organization's ${this.perDay} immediate anchors for today (UTC) are spent; anchor without credentials to join the next batch.`,
      );
  }

  /** Gives back an anchor whose transaction was never made (the relayer refused). */
  async refund(orgId: string, now = new Date()): Promise<void> {
    await this.db
      .updateTable('anchor_budget')
      .set((eb) => ({ used: eb('used', '-', 1) }))
      .where('org_id', '=', orgId)
      .where('day', '=', now.toISOString().slice(0, 10))
      .where('used', '>', 0)
      .execute();
  }
}
