// ft: a NEP-141 fungible token with NEP-145 storage management and NEP-297 events, behaving
// like near-contract-standards' FungibleToken (same checks, panic texts, events and
// ft_transfer_call → ft_on_transfer → ft_resolve_transfer refund flow).
//
// Storage: "STATE" = total_supply (u128 LE) ‖ account_storage_usage (u64 LE);
//          "m" = metadata JSON; "a" ‖ borsh(account_id) = balance (u128 LE).
import { assertNoDeposit, assertNotInitialized, assertOneYocto, assertPrivate, readState, storageByteCost, STATE_KEY } from "../sdk/contract";
import { emitEvent } from "../sdk/event";
import { JValue, Kind, Obj, parseArgs, quote } from "../sdk/json";
import {
  attachedDeposit, currentAccountId, fromUtf8, input, log, mapKey, predecessorAccountId, readU128,
  returnJson, storageRead, storageRemove, storageUsage, storageWrite, utf8, writeU128,
} from "../sdk/near";
import { panicStr, require } from "../sdk/panic";
import {
  TGAS, actionFunctionCallWeight, actionTransfer, batchCreate, batchThen, promiseResult, promiseReturn,
} from "../sdk/promise";
import { U128 } from "../sdk/u128";

const GAS_FOR_RESOLVE_TRANSFER: u64 = 5 * TGAS;

class State {
  constructor(public totalSupply: U128, public accountStorageUsage: u64) {}

  static load(): State {
    const b = readState();
    return new State(new U128(load<u64>(b.dataStart), load<u64>(b.dataStart + 8)), load<u64>(b.dataStart + 16));
  }

  save(): void {
    const b = new Uint8Array(24);
    store<u64>(b.dataStart, this.totalSupply.lo);
    store<u64>(b.dataStart + 8, this.totalSupply.hi);
    store<u64>(b.dataStart + 16, this.accountStorageUsage);
    storageWrite(utf8(STATE_KEY), b);
  }
}

function balanceKey(accountId: string): Uint8Array {
  return mapKey("a", accountId);
}

function balanceOf(accountId: string): U128 | null {
  return readU128(balanceKey(accountId));
}

/** The balance under `key` (the account's balanceKey), or near-sdk's panic for an unregistered account. */
function unwrapBalanceOf(accountId: string, key: Uint8Array): U128 {
  const b = readU128(key);
  if (b == null) panicStr("The account " + accountId + " is not registered");
  return b!;
}

function registerAccount(accountId: string): void {
  if (storageWrite(balanceKey(accountId), U128.zero().toBytes())) panicStr("The account is already registered");
}

function deposit(accountId: string, amount: U128): void {
  const key = balanceKey(accountId);
  const balance = unwrapBalanceOf(accountId, key);
  if (U128.max().sub(balance).lt(amount)) panicStr("Balance overflow");
  writeU128(key, balance.add(amount));
}

function withdraw(accountId: string, amount: U128): void {
  const key = balanceKey(accountId);
  const balance = unwrapBalanceOf(accountId, key);
  if (balance.lt(amount)) panicStr("The account doesn't have enough balance");
  writeU128(key, balance.sub(amount));
}

function transferEvent(from: string, to: string, amount: U128, memo: string | null): string {
  const o = new Obj().str("old_owner_id", from).str("new_owner_id", to).u128("amount", amount);
  if (memo != null) o.str("memo", memo);
  return o.build();
}

function internalTransfer(sender: string, receiver: string, amount: U128, memo: string | null): void {
  require(sender != receiver, "Sender and receiver should be different");
  require(!amount.isZero(), "The amount should be a positive number");
  withdraw(sender, amount);
  deposit(receiver, amount);
  emitEvent("nep141", "1.0.0", "ft_transfer", [transferEvent(sender, receiver, amount, memo)]);
}

function minStorageBalance(): U128 {
  return U128.from(State.load().accountStorageUsage).mul(storageByteCost());
}

function storageBalanceJson(accountId: string): string {
  if (balanceOf(accountId) == null) return "null";
  return new Obj().u128("total", minStorageBalance()).u128("available", U128.zero()).build();
}

function validMetadata(m: JValue): string {
  const spec = m.str("spec");
  require(spec == "ft-1.0.0", "Invalid FT metadata spec");
  const decimals = m.get("decimals");
  if (decimals == null || decimals.kind != Kind.Number) panicStr("Failed to deserialize input from JSON.");
  const reference = m.optStr("reference"), referenceHash = m.optStr("reference_hash");
  require((reference == null) == (referenceHash == null), "Reference and reference hash must be present together");
  return new Obj()
    .str("spec", spec).str("name", m.str("name")).str("symbol", m.str("symbol"))
    .optStr("icon", m.optStr("icon")).optStr("reference", reference).optStr("reference_hash", referenceHash)
    .raw("decimals", decimals!.text).build();
}

/** new({owner_id, total_supply, metadata}): registers the owner and mints the supply to it. */
export { init as new };
function init(): void {
  assertNotInitialized();
  assertNoDeposit("new");
  const args = parseArgs(input());
  const owner = args.str("owner_id");
  const supply = args.u128("total_supply");
  const meta = args.get("metadata");
  if (meta == null || meta.kind != Kind.Object) panicStr("Failed to deserialize input from JSON.");
  storageWrite(utf8("m"), utf8(validMetadata(meta!)));
  // Measure what one account record costs, with the longest account id (as near-sdk does).
  const before = storageUsage();
  const probe = "a".repeat(64);
  storageWrite(balanceKey(probe), U128.zero().toBytes());
  const perAccount = storageUsage() - before;
  storageRemove(balanceKey(probe));
  const state = new State(supply, perAccount);
  state.save();
  registerAccount(owner);
  deposit(owner, supply);
  emitEvent("nep141", "1.0.0", "ft_mint", [new Obj().str("owner_id", owner).u128("amount", supply).str("memo", "new tokens are minted").build()]);
}

/** ft_transfer({receiver_id, amount, memo?}), exactly 1 yoctoNEAR attached. */
export function ft_transfer(): void {
  assertOneYocto();
  State.load();
  const args = parseArgs(input());
  internalTransfer(predecessorAccountId(), args.str("receiver_id"), args.u128("amount"), args.optStr("memo"));
}

/**
 * ft_transfer_call({receiver_id, amount, memo?, msg}), exactly 1 yoctoNEAR attached: transfers,
 * calls receiver.ft_on_transfer({sender_id, amount, msg}) with all the unused gas (static 0,
 * weight 1), then self.ft_resolve_transfer (5 Tgas, weight 0), whose result (the amount used) is
 * this call's result. The gas split is near-sdk 5's.
 */
export function ft_transfer_call(): void {
  assertOneYocto();
  State.load();
  const args = parseArgs(input());
  const sender = predecessorAccountId();
  const receiver = args.str("receiver_id");
  const amount = args.u128("amount");
  internalTransfer(sender, receiver, amount, args.optStr("memo"));
  const onTransfer = batchCreate(receiver);
  actionFunctionCallWeight(
    onTransfer, "ft_on_transfer",
    new Obj().str("sender_id", sender).u128("amount", amount).str("msg", args.str("msg")).build(),
    U128.zero(), 0, 1,
  );
  const resolve = batchThen(onTransfer, currentAccountId());
  actionFunctionCallWeight(
    resolve, "ft_resolve_transfer",
    new Obj().str("sender_id", sender).str("receiver_id", receiver).u128("amount", amount).build(),
    U128.zero(), GAS_FOR_RESOLVE_TRANSFER, 0,
  );
  promiseReturn(resolve);
}

/** Callback: refunds what the receiver did not use (its ft_on_transfer result), returns the used amount. */
export function ft_resolve_transfer(): void {
  assertPrivate("ft_resolve_transfer");
  assertNoDeposit("ft_resolve_transfer");
  const state = State.load();
  const args = parseArgs(input());
  const sender = args.str("sender_id");
  const receiver = args.str("receiver_id");
  const amount = args.u128("amount");
  let unused = amount;
  const result = promiseResult(0);
  if (result.successful) {
    const text = fromUtf8(result.value);
    const parsed = text.length > 2 && text.charCodeAt(0) == 34 && text.charCodeAt(text.length - 1) == 34 ? U128.parse(text.substring(1, text.length - 1)) : null;
    unused = parsed == null ? amount : amount.min(parsed);
  }
  let used = amount;
  if (!unused.isZero()) {
    const receiverBalance = balanceOf(receiver);
    if (receiverBalance != null && !receiverBalance.isZero()) {
      const refund = receiverBalance.min(unused);
      writeU128(balanceKey(receiver), receiverBalance.sub(refund));
      const senderBalance = balanceOf(sender);
      if (senderBalance != null) {
        writeU128(balanceKey(sender), senderBalance.add(refund));
        emitEvent("nep141", "1.0.0", "ft_transfer", [transferEvent(receiver, sender, refund, "refund")]);
        used = amount.sub(refund);
      } else {
        // The sender unregistered meanwhile: the refund is burnt.
        state.totalSupply = state.totalSupply.sub(refund);
        state.save();
        log("The account of the sender was deleted");
        emitEvent("nep141", "1.0.0", "ft_burn", [new Obj().str("owner_id", receiver).u128("amount", refund).str("memo", "refund").build()]);
      }
    }
  }
  returnJson(quote(used.toString()));
}

export function ft_total_supply(): void {
  returnJson(quote(State.load().totalSupply.toString()));
}

/** ft_balance_of({account_id}): "0" for an unregistered account. */
export function ft_balance_of(): void {
  State.load();
  const b = balanceOf(parseArgs(input()).str("account_id"));
  returnJson(quote((b == null ? U128.zero() : b!).toString()));
}

export function ft_metadata(): void {
  State.load();
  returnJson(fromUtf8(storageRead(utf8("m"))!));
}

/**
 * storage_deposit({account_id?, registration_only?}), payable: registers account_id (default:
 * the caller) for the minimum storage balance and refunds the rest; an already registered
 * account gets the whole deposit back.
 */
export function storage_deposit(): void {
  State.load();
  const args = parseArgs(input());
  const amount = attachedDeposit();
  const given = args.optStr("account_id");
  const accountId = given == null ? predecessorAccountId() : given!;
  if (balanceOf(accountId) != null) {
    log("The account is already registered, refunding the deposit");
    if (!amount.isZero()) actionTransfer(batchCreate(predecessorAccountId()), amount);
  } else {
    const min = minStorageBalance();
    if (amount.lt(min)) panicStr("The attached deposit is less than the minimum storage balance");
    registerAccount(accountId);
    const refund = amount.sub(min);
    if (!refund.isZero()) actionTransfer(batchCreate(predecessorAccountId()), refund);
  }
  returnJson(storageBalanceJson(accountId));
}

/** storage_withdraw({amount?}), 1 yoctoNEAR: nothing is ever withdrawable above the minimum. */
export function storage_withdraw(): void {
  assertOneYocto();
  State.load();
  const args = parseArgs(input());
  const accountId = predecessorAccountId();
  if (balanceOf(accountId) == null) panicStr("The account " + accountId + " is not registered");
  const amount = args.get("amount");
  if (amount != null && !amount.isNull() && !args.u128("amount").isZero()) {
    panicStr("The amount is greater than the available storage balance");
  }
  returnJson(storageBalanceJson(accountId));
}

/** storage_unregister({force?}), 1 yoctoNEAR: closes the caller's account (burning its tokens with force), refunding its storage deposit. */
export function storage_unregister(): void {
  assertOneYocto();
  const state = State.load();
  const force = parseArgs(input()).optBool("force", false);
  const accountId = predecessorAccountId();
  const balance = balanceOf(accountId);
  if (balance == null) {
    log("The account " + accountId + " is not registered");
    returnJson("false");
    return;
  }
  if (!balance.isZero() && !force) panicStr("Can't unregister the account with the positive balance without force");
  storageRemove(balanceKey(accountId));
  state.totalSupply = state.totalSupply.sub(balance);
  state.save();
  actionTransfer(batchCreate(accountId), minStorageBalance().add(U128.from(1)));
  log("Closed @" + accountId + " with " + balance.toString());
  returnJson("true");
}

export function storage_balance_of(): void {
  State.load();
  returnJson(storageBalanceJson(parseArgs(input()).str("account_id")));
}

export function storage_balance_bounds(): void {
  const min = minStorageBalance();
  returnJson(new Obj().u128("min", min).u128("max", min).build());
}
