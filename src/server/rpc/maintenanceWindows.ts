import type { MaintenanceWindowsParams, MaintenanceWindowsResult } from "../../../generated/rpc/types.js";
import { maintenanceWindows as windowsOf } from "../../chain/views/maintenanceWindows.js";
import type { RpcContext } from "./context.js";

/** `maintenance_windows` (and `EXPERIMENTAL_maintenance_windows`). */
export function maintenanceWindows(params: MaintenanceWindowsParams, ctx: RpcContext): MaintenanceWindowsResult {
  return windowsOf(ctx.chain, params.account_id);
}
