/**
 * @module attestations/eas-chain
 * The EAS contracts on the chain, as the trust service meets them: the relayer says
 * where they are (and registers XV's schema there, once), the trust service signs and
 * the relayer submits. The trust service holds no on-chain key: an on-chain
 * attestation is a delegated one, signed by the issuer's key (its attester on chain)
 * and paid for by the relayer.
 */
import { AppError } from '@xv/platform';
import { createPublicClient, type Hex, http, type PublicClient, parseAbi } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { RelayedAttestation, RelayerClient } from '../anchoring/relayer-client.js';
import { errors } from '../errors.js';
import {
  type AttestationContent,
  type EasDomainConfig,
  signDelegatedAttestation,
  XV_ATTESTATION_SCHEMA,
  XV_SCHEMA_REVOCABLE,
  XV_SCHEMA_UID,
} from './eas.js';

const NONCES_ABI = parseAbi(['function getNonce(address account) view returns (uint256)']);
/** A delegated signature is good for this long: enough for the relayer, too short to hoard. */
const DEADLINE_SECONDS = 300n;

export class EasChain {
  private known: Promise<EasDomainConfig> | undefined;
  private readonly client: PublicClient;
  /** Per attester, the tail of its on-chain attestations: each signs the nonce the last one left. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly o: { relayer: RelayerClient; rpcUrl: string }) {
    this.client = createPublicClient({ transport: http(o.rpcUrl, { timeout: 5000, retryCount: 1 }) });
  }

  /** The EAS contract to name in EIP-712 domains, with XV's schema registered in its registry. */
  domain(): Promise<EasDomainConfig> {
    this.known ??= this.resolve().catch((error) => {
      this.known = undefined;
      throw error;
    });
    return this.known;
  }

  private async resolve(): Promise<EasDomainConfig> {
    const deployment = await this.o.relayer.easDeployment();
    const { uid } = await this.o.relayer.registerSchema(XV_ATTESTATION_SCHEMA, XV_SCHEMA_REVOCABLE);
    if (uid.toLowerCase() !== XV_SCHEMA_UID)
      throw errors.eas_unavailable('The registry gave XV’s schema another UID.');
    return { chainId: deployment.chainId, contract: deployment.eas, version: deployment.version };
  }

  /** Attests on chain as `signer`, one at a time per signer (each consumes its EAS nonce). */
  attest(signer: PrivateKeyAccount, content: AttestationContent): Promise<RelayedAttestation> {
    const tail = this.queues.get(signer.address) ?? Promise.resolve();
    const run = tail.then(
      () => this.attestNow(signer, content),
      () => this.attestNow(signer, content),
    );
    const settled = run.catch(() => {});
    this.queues.set(signer.address, settled);
    void settled.then(() => {
      if (this.queues.get(signer.address) === settled) this.queues.delete(signer.address);
    });
    return run;
  }

  private async attestNow(
    signer: PrivateKeyAccount,
    content: AttestationContent,
  ): Promise<RelayedAttestation> {
    const domain = await this.domain();
    try {
      return await this.submit(signer, domain, content);
    } catch (error) {
      // Another trust instance may have used this issuer's nonce in between: sign again once.
      if (!(error instanceof AppError && error.code === 'onchain_attestation_rejected')) throw error;
      return this.submit(signer, domain, content);
    }
  }

  private async submit(signer: PrivateKeyAccount, domain: EasDomainConfig, content: AttestationContent) {
    const nonce = await this.client
      .readContract({
        address: domain.contract as Hex,
        abi: NONCES_ABI,
        functionName: 'getNonce',
        args: [signer.address],
      })
      .catch(() => {
        throw errors.eas_unavailable('The chain cannot be read (XV_CHAIN_RPC_URL).');
      });
    const deadline = BigInt(Math.floor(Date.now() / 1000)) + DEADLINE_SECONDS;
    const request = await signDelegatedAttestation(signer, domain, { ...content, nonce, deadline });
    return this.o.relayer.attestByDelegation(request);
  }
}
