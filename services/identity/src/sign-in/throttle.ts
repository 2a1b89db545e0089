/**
 * @module sign-in/throttle
 * Failed sign-ins slow the guesser down without locking the owner out. Failures
 * are counted per account *and source*: the client address, or the known device
 * (the `xv_device` cookie, sign-in/devices.ts) the browser proves it is. After
 * `freeFailures` failures a source must wait before its next try for that account,
 * 1 s, then 2 s, 4 s… up to `maxWaitSeconds`; a stranger's failures from elsewhere
 * never delay the owner. Two nets stay for sources that are not known devices: a
 * per-address limit over all accounts (password spraying) and a much larger
 * account-wide one (a crowd of addresses). Passkey sign-in has its own limiter and
 * never waits on these. Every wait imposed and every refusal goes to the security
 * log (the service logger, `event: "sign_in_throttled"`): realm, user id when the
 * account exists, address, failures and wait; never the e-mail or the password.
 */
import {
  type AnyDatabase,
  createRateLimiter,
  isLimited,
  type Logger,
  type RateLimiter,
  sha256Hex,
} from '@xv/platform';

export interface ThrottleSettings {
  /** Failures of one source for one account before each further try must wait. */
  freeFailures: number;
  /** The longest such wait, and the window of the two nets. */
  maxWaitSeconds: number;
  /** Failures from one address, over all accounts, before it is refused for `maxWaitSeconds`. */
  addressMaxFailures: number;
  /** Failures of one account from sources that are not its known devices, before those wait `maxWaitSeconds`. */
  accountMaxFailures: number;
}

/** One sign-in attempt, as the throttle sees it. */
export interface Attempt {
  /** `<realm>:<e-mail>` for a password, `mfa:<user id>` for a second factor. */
  account: string;
  address: string;
  /** The id of the browser's known device when it is one of this account's user, else null. */
  device: string | null;
  /** For the security log: the account's realm and user, when it exists. */
  realmId?: string;
  userId?: string | null;
}

/** How long failures of one source for one account are remembered: a day, so waits do not reset sooner. */
const SOURCE_WINDOW_SECONDS = 24 * 3600;

export class SignInThrottle {
  private constructor(
    private readonly settings: ThrottleSettings,
    private readonly logger: Logger,
    /** Failures per account and source (a counter). */
    private readonly sourceFailures: RateLimiter,
    /** The wait a source is in for an account (blocked keys). */
    private readonly sourceWait: RateLimiter,
    private readonly addresses: RateLimiter,
    private readonly accounts: RateLimiter,
  ) {}

  static async create(database: AnyDatabase, settings: ThrottleSettings, logger: Logger) {
    const window = settings.maxWaitSeconds;
    return new SignInThrottle(
      settings,
      logger,
      await createRateLimiter(database, {
        keyPrefix: 'identity-source-failures',
        points: Number.MAX_SAFE_INTEGER,
        durationSeconds: SOURCE_WINDOW_SECONDS,
      }),
      await createRateLimiter(database, { keyPrefix: 'identity-source-wait', points: 1, durationSeconds: 1 }),
      await createRateLimiter(database, {
        keyPrefix: 'identity-signin-address',
        points: settings.addressMaxFailures,
        durationSeconds: window,
        blockSeconds: window,
      }),
      await createRateLimiter(database, {
        keyPrefix: 'identity-signin-account',
        points: settings.accountMaxFailures,
        durationSeconds: window,
        blockSeconds: window,
      }),
    );
  }

  /** Seconds the attempt must wait before it may be tried, or null when it may go ahead. */
  async waitFor(attempt: Attempt): Promise<number | null> {
    const limits = [isLimited(this.sourceWait, sourceKey(attempt))];
    if (!attempt.device)
      limits.push(isLimited(this.addresses, attempt.address), isLimited(this.accounts, accountKey(attempt)));
    const waits = (await Promise.all(limits)).flatMap((state) =>
      state ? [Math.max(1, Math.ceil(state.msBeforeNext / 1000))] : [],
    );
    if (waits.length === 0) return null;
    const seconds = Math.max(...waits);
    this.log(attempt, 'refused', { retryAfterSeconds: seconds });
    return seconds;
  }

  /** Counts a failure; past the free ones, the source waits longer each time. */
  async failed(attempt: Attempt): Promise<void> {
    const key = sourceKey(attempt);
    const { consumedPoints: failures } = await this.sourceFailures.consume(key);
    if (failures >= this.settings.freeFailures) {
      const wait = Math.min(
        this.settings.maxWaitSeconds,
        2 ** Math.min(30, failures - this.settings.freeFailures),
      );
      await this.sourceWait.block(key, wait);
      this.log(attempt, 'wait', { failures, waitSeconds: wait });
    }
    if (attempt.device) return;
    // Spent points past the limit throw; that is the block we want, not an error.
    await this.addresses.consume(attempt.address).catch(() => {});
    await this.accounts.consume(accountKey(attempt)).catch(() => {});
  }

  /** A success forgets the source's failures (the nets keep theirs: they count everyone's). */
  async succeeded(attempt: Attempt): Promise<void> {
    const key = sourceKey(attempt);
    await this.sourceFailures.delete(key);
    await this.sourceWait.delete(key);
  }

  private log(attempt: Attempt, outcome: 'wait' | 'refused', detail: Record<string, number>) {
    this.logger.warn(
      {
        event: 'sign_in_throttled',
        outcome,
        step: attempt.account.startsWith('mfa:') ? 'second_factor' : 'password',
        realmId: attempt.realmId,
        userId: attempt.userId ?? null,
        address: attempt.address,
        knownDevice: attempt.device !== null,
        ...detail,
      },
      outcome === 'wait' ? 'failed sign-ins: this source must wait' : 'sign-in refused while waiting',
    );
  }
}

// Keys are hashed: an e-mail address may be long, and the PostgreSQL store keeps keys of bounded length.
function accountKey(attempt: Attempt): string {
  return sha256Hex(attempt.account);
}

function sourceKey(attempt: Attempt): string {
  return sha256Hex(
    `${attempt.account}|${attempt.device ? `device:${attempt.device}` : `ip:${attempt.address}`}`,
  );
}
