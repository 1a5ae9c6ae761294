// nft: NEP-171 core (nft_transfer, nft_token), NEP-177 metadata, NEP-181 enumeration and NEP-297
// events, behaving like near-contract-standards' NonFungibleToken without approvals.
//
// Storage: "STATE" = owner_id; "m" = contract metadata JSON; "k" ‖ borsh(token_id) = owner_id;
// "d" ‖ borsh(token_id) = token metadata JSON; "i" = all token ids, sorted (as near-sdk's
// TreeMap lists them); "o" ‖ borsh(owner_id) = that owner's token ids (UnorderedSet order).
import { assertNotInitialized, assertNoDeposit, assertOneYocto, assertPrivate, readState, storageByteCost, STATE_KEY } from "../sdk/contract";
import { emitEvent } from "../sdk/event";
import { JValue, Kind, Obj, arr, parseArgs, quote } from "../sdk/json";
import {
  attachedDeposit, currentAccountId, fromUtf8, input, mapKey, predecessorAccountId, prepaidGas, returnJson, storageRead,
  storageUsage, storageWrite, utf8,
} from "../sdk/near";
import { panicStr, require } from "../sdk/panic";
import {
  TGAS, actionFunctionCallWeight, actionTransfer, batchCreate, batchThen, promiseResult, promiseReturn,
} from "../sdk/promise";
import { loadList, saveList } from "../sdk/stringList";
import { U128 } from "../sdk/u128";

const GAS_FOR_RESOLVE_TRANSFER: u64 = 5 * TGAS;
const GAS_FOR_NFT_TRANSFER_CALL: u64 = 25 * TGAS + GAS_FOR_RESOLVE_TRANSFER;
const TOKEN_METADATA_STRINGS = ["title", "description", "media", "media_hash"];
const TOKEN_METADATA_TAIL = ["issued_at", "expires_at", "starts_at", "updated_at", "extra", "reference", "reference_hash"];

function ownerId(): string {
  return fromUtf8(readState());
}

function tokenOwner(tokenId: string): string | null {
  const b = storageRead(mapKey("k", tokenId));
  return b == null ? null : fromUtf8(b);
}

function tokenJson(tokenId: string): string {
  const owner = tokenOwner(tokenId);
  if (owner == null) return "null";
  const meta = storageRead(mapKey("d", tokenId));
  return new Obj()
    .str("token_id", tokenId)
    .str("owner_id", owner!)
    .raw("metadata", meta == null ? "null" : fromUtf8(meta))
    .raw("approved_account_ids", "null")
    .build();
}

function optString(m: JValue, key: string): string {
  const v = m.optStr(key);
  return v == null ? "null" : quote(v);
}

/** NEP-177 TokenMetadata in serde's field order, absent fields as null. */
function normalizeTokenMetadata(m: JValue): string {
  if (m.kind != Kind.Object) panicStr("Failed to deserialize input from JSON.");
  const o = new Obj();
  for (let i = 0; i < TOKEN_METADATA_STRINGS.length; i++) o.raw(TOKEN_METADATA_STRINGS[i], optString(m, TOKEN_METADATA_STRINGS[i]));
  const copies = m.get("copies");
  if (copies != null && !copies.isNull() && copies.kind != Kind.Number) panicStr("Failed to deserialize input from JSON.");
  o.raw("copies", copies == null ? "null" : copies.toJson());
  for (let i = 0; i < TOKEN_METADATA_TAIL.length; i++) o.raw(TOKEN_METADATA_TAIL[i], optString(m, TOKEN_METADATA_TAIL[i]));
  return o.build();
}

/** new({owner_id, metadata: {spec: "nft-1.0.0", name, symbol, icon?, base_uri?, reference?, reference_hash?}}). */
function init(): void {
  assertNotInitialized();
  assertNoDeposit("new");
  const args = parseArgs(input());
  const owner = args.str("owner_id");
  const m = args.get("metadata");
  if (m == null || m.kind != Kind.Object) panicStr("Failed to deserialize input from JSON.");
  const spec = m!.str("spec");
  require(spec == "nft-1.0.0", "Invalid NFT metadata spec");
  const meta = new Obj()
    .str("spec", spec).str("name", m!.str("name")).str("symbol", m!.str("symbol"))
    .raw("icon", optString(m!, "icon")).raw("base_uri", optString(m!, "base_uri"))
    .raw("reference", optString(m!, "reference")).raw("reference_hash", optString(m!, "reference_hash"))
    .build();
  storageWrite(utf8(STATE_KEY), utf8(owner));
  storageWrite(utf8("m"), utf8(meta));
}
export { init as new };

/**
 * nft_mint({token_id, token_owner_id, token_metadata}), payable, by the contract owner only:
 * the deposit must cover the storage the token takes; the excess is refunded.
 */
export function nft_mint(): void {
  const owner = ownerId();
  require(predecessorAccountId() == owner, "Unauthorized");
  const args = parseArgs(input());
  const tokenId = args.str("token_id");
  const receiver = args.str("token_owner_id");
  const meta = args.get("token_metadata");
  if (meta == null || meta.isNull()) panicStr("Must provide metadata");
  const before = storageUsage();
  if (storageWrite(mapKey("k", tokenId), utf8(receiver))) panicStr("token_id must be unique");
  storageWrite(mapKey("d", tokenId), utf8(normalizeTokenMetadata(meta!)));
  const all = loadList(utf8("i"));
  let at = 0;
  while (at < all.length && all[at] < tokenId) at++;
  all.push(tokenId);
  for (let i = all.length - 1; i > at; i--) all[i] = all[i - 1];
  all[at] = tokenId;
  saveList(utf8("i"), all);
  const mine = loadList(mapKey("o", receiver));
  mine.push(tokenId);
  saveList(mapKey("o", receiver), mine);

  const required = U128.from(storageUsage() - before).mul(storageByteCost());
  const deposit = attachedDeposit();
  require(required.le(deposit), "Must attach " + required.toString() + " yoctoNEAR to cover storage");
  const refund = deposit.sub(required);
  if (refund.gt(U128.from(1))) actionTransfer(batchCreate(predecessorAccountId()), refund);
  emitEvent("nep171", "1.0.0", "nft_mint", [new Obj().str("owner_id", receiver).raw("token_ids", arr([quote(tokenId)])).build()]);
  returnJson(tokenJson(tokenId));
}

function removeFromOwner(owner: string, tokenId: string): void {
  const list = loadList(mapKey("o", owner));
  for (let i = 0; i < list.length; i++) {
    if (list[i] == tokenId) {
      list[i] = list[list.length - 1]; // UnorderedSet's swap_remove
      list.pop();
      break;
    }
  }
  saveList(mapKey("o", owner), list);
}

/** Moves the token between owners (no checks) and emits nft_transfer. */
function moveToken(tokenId: string, from: string, to: string, memo: string | null): void {
  storageWrite(mapKey("k", tokenId), utf8(to));
  removeFromOwner(from, tokenId);
  const theirs = loadList(mapKey("o", to));
  theirs.push(tokenId);
  saveList(mapKey("o", to), theirs);
  const data = new Obj().str("old_owner_id", from).str("new_owner_id", to).raw("token_ids", arr([quote(tokenId)]));
  if (memo != null) data.str("memo", memo);
  emitEvent("nep171", "1.0.0", "nft_transfer", [data.build()]);
}

/** The checks of near-sdk's internal_transfer; returns the previous owner. */
function checkedTransfer(sender: string, receiver: string, tokenId: string, memo: string | null): string {
  const owner = tokenOwner(tokenId);
  if (owner == null) panicStr("Token not found");
  // Without the approval extension only the owner may transfer (near-sdk's message).
  require(sender == owner!, "Approval extension is disabled");
  require(owner! != receiver, "Current and next owner must differ");
  moveToken(tokenId, owner!, receiver, memo);
  return owner!;
}

/** nft_transfer({receiver_id, token_id, approval_id?, memo?}), exactly 1 yoctoNEAR, by the owner. */
export function nft_transfer(): void {
  assertOneYocto();
  ownerId();
  const args = parseArgs(input());
  checkedTransfer(predecessorAccountId(), args.str("receiver_id"), args.str("token_id"), args.optStr("memo"));
}

/**
 * nft_transfer_call({receiver_id, token_id, approval_id?, memo?, msg}), exactly 1 yoctoNEAR:
 * transfers, calls receiver.nft_on_transfer({sender_id, previous_owner_id, token_id, msg}), then
 * self.nft_resolve_transfer, whose bool (kept by the receiver) is this call's result.
 */
export function nft_transfer_call(): void {
  assertOneYocto();
  ownerId();
  require(prepaidGas() > GAS_FOR_NFT_TRANSFER_CALL, "More gas is required");
  const args = parseArgs(input());
  const sender = predecessorAccountId();
  const receiver = args.str("receiver_id");
  const tokenId = args.str("token_id");
  const previous = checkedTransfer(sender, receiver, tokenId, args.optStr("memo"));
  const onTransfer = batchCreate(receiver);
  actionFunctionCallWeight(
    onTransfer, "nft_on_transfer",
    new Obj().str("sender_id", sender).str("previous_owner_id", previous).str("token_id", tokenId).str("msg", args.str("msg")).build(),
    U128.zero(), prepaidGas() - GAS_FOR_NFT_TRANSFER_CALL, 1,
  );
  const resolve = batchThen(onTransfer, currentAccountId());
  actionFunctionCallWeight(
    resolve, "nft_resolve_transfer",
    new Obj().str("previous_owner_id", previous).str("receiver_id", receiver).str("token_id", tokenId).raw("approved_account_ids", "null").build(),
    U128.zero(), GAS_FOR_RESOLVE_TRANSFER, 1,
  );
  promiseReturn(resolve);
}

/**
 * Callback: when the receiver asked for the token back (`true`, anything unparsable, or a failed
 * call) and still owns it, returns it to the previous owner. Result: whether the transfer stands.
 */
export function nft_resolve_transfer(): void {
  assertPrivate("nft_resolve_transfer");
  ownerId();
  const args = parseArgs(input());
  const previous = args.str("previous_owner_id");
  const receiver = args.str("receiver_id");
  const tokenId = args.str("token_id");
  const r = promiseResult(0);
  const text = r.successful ? fromUtf8(r.value) : "";
  const mustRevert = !r.successful || text != "false";
  const current = tokenOwner(tokenId);
  if (!mustRevert || current == null || current! != receiver) {
    returnJson("true");
    return;
  }
  moveToken(tokenId, receiver, previous, null);
  returnJson("false");
}

export function nft_token(): void {
  ownerId();
  returnJson(tokenJson(parseArgs(input()).str("token_id")));
}

export function nft_metadata(): void {
  ownerId();
  returnJson(fromUtf8(storageRead(utf8("m"))!));
}

export function nft_total_supply(): void {
  ownerId();
  returnJson(quote(loadList(utf8("i")).length.toString()));
}

export function nft_supply_for_owner(): void {
  ownerId();
  returnJson(quote(loadList(mapKey("o", parseArgs(input()).str("account_id"))).length.toString()));
}

/** near-sdk's paging: from_index (U128 string) ≤ length, limit (number) ≠ 0. */
function page(ids: string[], args: JValue, strictStart: bool): string {
  let start: u64 = 0;
  if (args.has("from_index")) {
    const f = args.u128("from_index");
    start = f.hi != 0 ? u64.MAX_VALUE : f.lo;
  }
  const len = <u64>ids.length;
  require(strictStart ? len > start : len >= start, "Out of bounds, please use a smaller from_index.");
  const limit = args.optNumberU64("limit", u64.MAX_VALUE);
  require(limit != 0, "Cannot provide limit of 0.");
  const out: string[] = [];
  for (let i = start; i < len && <u64>out.length < limit; i++) out.push(tokenJson(ids[<i32>i]));
  return arr(out);
}

/** nft_tokens({from_index?, limit?}): all tokens by token id. */
export function nft_tokens(): void {
  ownerId();
  returnJson(page(loadList(utf8("i")), parseArgs(input()), false));
}

/** nft_tokens_for_owner({account_id, from_index?, limit?}). */
export function nft_tokens_for_owner(): void {
  ownerId();
  const args = parseArgs(input());
  const ids = loadList(mapKey("o", args.str("account_id")));
  if (ids.length == 0) {
    returnJson("[]");
    return;
  }
  returnJson(page(ids, args, true));
}
