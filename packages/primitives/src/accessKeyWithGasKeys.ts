import type { FunctionCallPermission } from "./accessKey.js";
import type { BorshWriter } from "./borshWriter.js";
import type { TxReader } from "./TxReader.js";

/** The prepaid part of a gas key: balance (u128 yocto) and the number of parallel nonces (u16). */
export interface GasKeyInfo {
  readonly balance: bigint;
  readonly numNonces: number;
}

/**
 * AccessKeyPermission with nearcore's gas-key variants. The first two shapes are exactly
 * those of `primitives/accessKey.ts` (which models tags 0 and 1 only), so a state access key
 * is assignable to this type.
 */
export type AccessKeyPermissionWithGasKeys =
  | "FullAccess"
  | { readonly FunctionCall: FunctionCallPermission }
  | {
      readonly GasKeyFunctionCall: {
        readonly gasKeyInfo: GasKeyInfo;
        readonly functionCall: FunctionCallPermission;
      };
    }
  | { readonly GasKeyFullAccess: GasKeyInfo };

/** The access key an AddKey action carries: nonce u64 ‖ permission enum (tags 0..3). */
export interface AccessKeyWithGasKeys {
  readonly nonce: bigint;
  readonly permission: AccessKeyPermissionWithGasKeys;
}

function readFunctionCallPermission(r: TxReader): FunctionCallPermission {
  const allowance = r.option("access_key.allowance") ? r.u128("access_key.allowance") : null;
  // Kept a String in nearcore (not AccountId) because old genesis records hold invalid ids.
  const receiverId = r.string("access_key.receiver_id");
  const count = r.vecLength("access_key.method_names", 4);
  const methodNames: string[] = [];
  for (let i = 0; i < count; i++) methodNames.push(r.string("access_key.method_names[]"));
  return { allowance, receiverId, methodNames };
}

function readGasKeyInfo(r: TxReader): GasKeyInfo {
  return { balance: r.u128("access_key.gas_key.balance"), numNonces: r.u16("access_key.gas_key.num_nonces") };
}

export function readAccessKeyWithGasKeys(r: TxReader): AccessKeyWithGasKeys {
  const nonce = r.u64("access_key.nonce");
  const at = r.position;
  const tag = r.u8("access_key.permission");
  switch (tag) {
    case 0:
      return { nonce, permission: { FunctionCall: readFunctionCallPermission(r) } };
    case 1:
      return { nonce, permission: "FullAccess" };
    case 2: {
      const gasKeyInfo = readGasKeyInfo(r);
      return {
        nonce,
        permission: { GasKeyFunctionCall: { gasKeyInfo, functionCall: readFunctionCallPermission(r) } },
      };
    }
    case 3:
      return { nonce, permission: { GasKeyFullAccess: readGasKeyInfo(r) } };
    default:
      return r.fail(`access_key.permission: unknown AccessKeyPermission tag ${tag}`, at);
  }
}

function writeFunctionCallPermission(w: BorshWriter, p: FunctionCallPermission): void {
  if (p.allowance === null) w.u8(0);
  else w.u8(1).u128(p.allowance);
  w.string(p.receiverId).u32(p.methodNames.length);
  for (const m of p.methodNames) w.string(m);
}

function writeGasKeyInfo(w: BorshWriter, info: GasKeyInfo): void {
  if (!Number.isInteger(info.numNonces) || info.numNonces < 0 || info.numNonces > 0xffff) {
    throw new RangeError(`num_nonces must be a u16, got ${info.numNonces}`);
  }
  w.u128(info.balance).u16(info.numNonces);
}

export function writeAccessKeyWithGasKeys(w: BorshWriter, key: AccessKeyWithGasKeys): void {
  w.u64(key.nonce);
  const p = key.permission;
  if (p === "FullAccess") {
    w.u8(1);
  } else if ("FunctionCall" in p) {
    w.u8(0);
    writeFunctionCallPermission(w, p.FunctionCall);
  } else if ("GasKeyFunctionCall" in p) {
    w.u8(2);
    writeGasKeyInfo(w, p.GasKeyFunctionCall.gasKeyInfo);
    writeFunctionCallPermission(w, p.GasKeyFunctionCall.functionCall);
  } else {
    w.u8(3);
    writeGasKeyInfo(w, p.GasKeyFullAccess);
  }
}
