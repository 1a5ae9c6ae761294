import type { AccessKey } from "@shardkit/primitives/accessKey";
import type { AccessKeyView } from "../../../../generated/rpc/types.js";

/** The wire form of an access key: u64 nonce as a number, u128 allowance as a decimal string. */
export function accessKeyView(key: AccessKey): AccessKeyView {
  const permission = key.permission;
  return {
    nonce: Number(key.nonce),
    permission:
      permission === "FullAccess"
        ? "FullAccess"
        : {
            FunctionCall: {
              allowance: permission.FunctionCall.allowance === null ? null : permission.FunctionCall.allowance.toString(),
              receiver_id: permission.FunctionCall.receiverId,
              method_names: [...permission.FunctionCall.methodNames],
            },
          },
  };
}
