/**
 * @module attestations/subjects
 * Who an attestation is about. The spec allows a DID or an id; an EVM address is
 * what EAS itself names. Anything else is refused (`invalid_subject`) rather than
 * quietly attested about nobody.
 *
 * - an EVM address: `0x` + 40 hex digits; in mixed case its EIP-55 checksum must hold;
 * - a DID (W3C DID Core syntax): `did:<method>:<method-specific-id>`;
 * - an XV id: a known prefix (`usr_`, `org_`, …) and letters or digits.
 *
 * The EAS recipient is the subject's address when it has one (an address, or a
 * `did:pkh:eip155:<chain>:<address>`), else the zero address; the subject itself is
 * always in the attestation data.
 */
import { getAddress, type Hex, isAddress, zeroAddress } from 'viem';
import { errors } from '../errors.js';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const ID_CHAR = '(?:[A-Za-z0-9._-]|%[0-9A-Fa-f]{2})';
const DID = new RegExp(`^did:[a-z0-9]+:(?:${ID_CHAR}*:)*${ID_CHAR}+$`);
const PKH = /^did:pkh:eip155:[0-9]{1,32}:(0x[0-9a-fA-F]{40})$/;
const XV_ID = /^(?:usr|org|vc|doc|rcpt|att|run|lead)_[0-9A-Za-z]{1,64}$/;

/** The EAS recipient for `subject`; throws `invalid_subject` when it is no address, DID or XV id. */
export function recipientOf(subject: string): Hex {
  if (ADDRESS.test(subject)) return checksummed(subject);
  if (DID.test(subject)) {
    const address = PKH.exec(subject)?.[1];
    return address ? checksummed(address) : zeroAddress;
  }
  if (XV_ID.test(subject)) return zeroAddress;
  throw errors.invalid_subject();
}

function checksummed(address: string): Hex {
  if (!isAddress(address, { strict: true })) throw errors.invalid_subject();
  return getAddress(address);
}
