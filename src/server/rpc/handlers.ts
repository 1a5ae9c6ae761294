import type { RpcHandlers } from "../../../generated/rpc/methods.js";
import { block } from "./block.js";
import { broadcastTxAsync } from "./broadcastTxAsync.js";
import { broadcastTxCommit } from "./broadcastTxCommit.js";
import { changes } from "./changes.js";
import { changesInBlock } from "./changesInBlock.js";
import { chunk } from "./chunk.js";
import type { RpcContext } from "./context.js";
import { clientConfig } from "./clientConfig.js";
import { experimentalCallFunction } from "./experimentalCallFunction.js";
import { experimentalViewAccessKey } from "./experimentalViewAccessKey.js";
import { experimentalViewGasKeyNonces } from "./experimentalViewGasKeyNonces.js";
import { experimentalViewAccessKeyList } from "./experimentalViewAccessKeyList.js";
import { experimentalViewAccount } from "./experimentalViewAccount.js";
import { experimentalViewCode } from "./experimentalViewCode.js";
import { experimentalViewState } from "./experimentalViewState.js";
import { experimentalCongestionLevel } from "./experimentalCongestionLevel.js";
import { experimentalSplitStorageInfo } from "./experimentalSplitStorageInfo.js";
import { genesisConfig } from "./genesisConfig.js";
import { maintenanceWindows } from "./maintenanceWindows.js";
import { networkInfo } from "./networkInfo.js";
import { experimentalProtocolConfig } from "./experimentalProtocolConfig.js";
import { experimentalReceipt } from "./experimentalReceipt.js";
import { experimentalReceiptToTx } from "./experimentalReceiptToTx.js";
import { experimentalTxStatus } from "./experimentalTxStatus.js";
import { experimentalValidatorsOrdered } from "./experimentalValidatorsOrdered.js";
import { gasPrice } from "./gasPrice.js";
import { health } from "./health.js";
import { lightClientBlockProof } from "./lightClientBlockProof.js";
import { lightClientProof } from "./lightClientProof.js";
import { nextLightClientBlock } from "./nextLightClientBlock.js";
import { query } from "./query.js";
import { rpcDiscover } from "./rpcDiscover.js";
import { sandboxFastForward } from "./sandboxFastForward.js";
import { sandboxPatchState } from "./sandboxPatchState.js";
import { sendTx } from "./sendTx.js";
import { shardkitReset } from "./shardkitReset.js";
import { shardkitRevert } from "./shardkitRevert.js";
import { shardkitSnapshot } from "./shardkitSnapshot.js";
import { status } from "./status.js";
import { tx } from "./tx.js";
import { validators } from "./validators.js";

/** Every spec'd method and its handler; a method in the spec without one fails type-checking. */
export const rpcHandlers: RpcHandlers<RpcContext> = {
  query,
  block,
  status,
  gas_price: gasPrice,
  health,
  "rpc.discover": rpcDiscover,
  send_tx: sendTx,
  broadcast_tx_async: broadcastTxAsync,
  broadcast_tx_commit: broadcastTxCommit,
  tx,
  EXPERIMENTAL_tx_status: experimentalTxStatus,
  EXPERIMENTAL_receipt: experimentalReceipt,
  EXPERIMENTAL_receipt_to_tx: experimentalReceiptToTx,
  EXPERIMENTAL_protocol_config: experimentalProtocolConfig,
  validators,
  EXPERIMENTAL_validators_ordered: experimentalValidatorsOrdered,
  genesis_config: genesisConfig,
  EXPERIMENTAL_genesis_config: genesisConfig,
  client_config: clientConfig,
  EXPERIMENTAL_client_config: clientConfig,
  network_info: networkInfo,
  maintenance_windows: maintenanceWindows,
  EXPERIMENTAL_maintenance_windows: maintenanceWindows,
  EXPERIMENTAL_split_storage_info: experimentalSplitStorageInfo,
  EXPERIMENTAL_congestion_level: experimentalCongestionLevel,
  chunk,
  EXPERIMENTAL_changes_in_block: changesInBlock,
  block_effects: changesInBlock,
  changes,
  EXPERIMENTAL_changes: changes,
  light_client_proof: lightClientProof,
  EXPERIMENTAL_light_client_proof: lightClientProof,
  next_light_client_block: nextLightClientBlock,
  EXPERIMENTAL_light_client_block_proof: lightClientBlockProof,
  light_client_block_proof: lightClientBlockProof,
  EXPERIMENTAL_view_account: experimentalViewAccount,
  EXPERIMENTAL_view_code: experimentalViewCode,
  EXPERIMENTAL_view_state: experimentalViewState,
  EXPERIMENTAL_view_access_key: experimentalViewAccessKey,
  EXPERIMENTAL_view_gas_key_nonces: experimentalViewGasKeyNonces,
  EXPERIMENTAL_view_access_key_list: experimentalViewAccessKeyList,
  EXPERIMENTAL_call_function: experimentalCallFunction,
  sandbox_patch_state: sandboxPatchState,
  sandbox_fast_forward: sandboxFastForward,
  shardkit_snapshot: shardkitSnapshot,
  shardkit_reset: shardkitReset,
  shardkit_revert: shardkitRevert,
};
