/**
 * @module router/cooldown
 * A circuit breaker per model: a model that fails `failures` times within
 * `windowMs` is skipped for `cooldownMs`, then tried again. It lives in the
 * memory of each instance (a model that fails for one instance usually fails
 * for all, and each learns it within a few requests).
 */

export interface CooldownOptions {
  failures: number;
  windowMs: number;
  cooldownMs: number;
  now?: () => number;
}

export class ModelCooldown {
  private readonly recentFailures = new Map<string, number[]>();
  private readonly coolingUntil = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly options: CooldownOptions) {
    this.now = options.now ?? Date.now;
  }

  /** True while `model` is being skipped. */
  isCooling(model: string): boolean {
    const until = this.coolingUntil.get(model);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.coolingUntil.delete(model);
    return false;
  }

  recordFailure(model: string): void {
    const now = this.now();
    const recent = (this.recentFailures.get(model) ?? []).filter((t) => t > now - this.options.windowMs);
    recent.push(now);
    if (recent.length >= this.options.failures) {
      this.coolingUntil.set(model, now + this.options.cooldownMs);
      this.recentFailures.delete(model);
    } else {
      this.recentFailures.set(model, recent);
    }
  }

  recordSuccess(model: string): void {
    this.recentFailures.delete(model);
  }
}
