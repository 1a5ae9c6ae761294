import type { AccessKey } from "@shardkit/primitives/accessKey";
import type { AccessKeyView } from "../../../../generated/rpc/types.js";
import { toAccessKeyPermissionView } from "../../../chain/transaction/actionView.js";

/**
 * The wire form of an access key: u64 nonce as a number, u128 amounts as decimal strings; a
 * gas key's balance and nonce count sit beside its function-call fields (nearcore
 * `AccessKeyPermissionView`). A gas key's own nonce is always 0: its nonces are per index.
 */
export function accessKeyView(key: AccessKey): AccessKeyView {
  return { nonce: Number(key.nonce), permission: toAccessKeyPermissionView(key.permission) };
}
