/**
 * @module eas/gateway
 * What the relayer does with the EAS contracts for its callers: register a schema in
 * the SchemaRegistry (idempotent: the UID is a hash of the schema, so a schema already
 * there is simply reported), and submit a delegated attestation (`attestByDelegation`)
 * that the attester signed off chain: the relayer pays for it, the attestation is the
 * attester's. Every call is simulated first, so the contract's refusal comes back by
 * name (`InvalidSignature`, `InvalidSchema`, `DeadlineExpired`…) and costs nothing.
 */
import {
  decodeEventLog,
  encodeFunctionData,
  encodePacked,
  getAddress,
  type Hex,
  keccak256,
  type PublicClient,
  zeroAddress,
  zeroHash,
} from 'viem';
import { errors } from '../errors.js';
import { type ContractCalls, isRevert, revertReason } from '../relayer/contract-calls.js';
import { easArtifact, schemaRegistryArtifact } from './contracts.js';
import type { EasDeployment } from './deployment.js';

export interface DelegatedAttestation {
  schema: Hex;
  recipient: Hex;
  expirationTime: bigint;
  revocable: boolean;
  refUID: Hex;
  data: Hex;
  attester: Hex;
  deadline: bigint;
  signature: { v: number; r: Hex; s: Hex };
}

export interface SchemaRegistration {
  uid: Hex;
  /** The registration transaction, when this call registered it. */
  txHash: Hex | null;
}

export interface OnchainAttestation {
  uid: Hex;
  txHash: Hex;
  blockNumber: number;
  attester: Hex;
}

/** The SchemaRegistry's UID: keccak256(abi.encodePacked(schema, resolver, revocable)). */
export function registrySchemaUid(schema: string, revocable: boolean, resolver: Hex = zeroAddress): Hex {
  return keccak256(encodePacked(['string', 'address', 'bool'], [schema, resolver, revocable]));
}

export class EasGateway {
  constructor(
    readonly deployment: EasDeployment,
    private readonly client: PublicClient,
    private readonly relayerAddress: Hex,
    private readonly calls: ContractCalls,
  ) {}

  async registerSchema(schema: string, revocable: boolean): Promise<SchemaRegistration> {
    const uid = registrySchemaUid(schema, revocable);
    if (await this.isRegistered(uid)) return { uid, txHash: null };
    const call = {
      abi: schemaRegistryArtifact.abi,
      functionName: 'register',
      args: [schema, zeroAddress, revocable],
    };
    try {
      await this.simulate(this.deployment.schemaRegistry, call);
      const receipt = await this.calls.send({
        to: this.deployment.schemaRegistry,
        data: encodeFunctionData(call),
      });
      return { uid, txHash: receipt.transactionHash };
    } catch (error) {
      // Registered by another caller in the meantime (`AlreadyExists`): it is there, as asked.
      if (await this.isRegistered(uid)) return { uid, txHash: null };
      throw error;
    }
  }

  async attestByDelegation(request: DelegatedAttestation): Promise<OnchainAttestation> {
    const call = {
      abi: easArtifact.abi,
      functionName: 'attestByDelegation',
      args: [
        {
          schema: request.schema,
          data: {
            recipient: request.recipient,
            expirationTime: request.expirationTime,
            revocable: request.revocable,
            refUID: request.refUID,
            data: request.data,
            value: 0n,
          },
          signature: request.signature,
          attester: request.attester,
          deadline: request.deadline,
        },
      ],
    };
    await this.simulate(this.deployment.eas, call);
    const receipt = await this.calls.send({ to: this.deployment.eas, data: encodeFunctionData(call) });
    for (const log of receipt.logs) {
      if (log.address.toLowerCase() !== this.deployment.eas.toLowerCase()) continue;
      const event = decodeEventLog({
        abi: easArtifact.abi,
        data: log.data,
        topics: log.topics,
        strict: false,
      });
      if (event.eventName !== 'Attested') continue;
      const { uid } = event.args as unknown as { uid: Hex };
      return {
        uid,
        txHash: receipt.transactionHash,
        blockNumber: Number(receipt.blockNumber),
        attester: getAddress(request.attester),
      };
    }
    throw errors.eas_call_rejected('The attestation transaction emitted no Attested event.');
  }

  private async isRegistered(uid: Hex): Promise<boolean> {
    const record = (await this.client.readContract({
      address: this.deployment.schemaRegistry,
      abi: schemaRegistryArtifact.abi,
      functionName: 'getSchema',
      args: [uid],
    })) as { uid: Hex };
    return record.uid !== zeroHash;
  }

  private async simulate(
    address: Hex,
    call: { abi: typeof easArtifact.abi; functionName: string; args: unknown[] },
  ): Promise<void> {
    try {
      await this.client.simulateContract({ address, account: this.relayerAddress, ...call });
    } catch (error) {
      if (isRevert(error)) throw errors.eas_call_rejected(revertReason(error));
      throw error;
    }
  }
}
