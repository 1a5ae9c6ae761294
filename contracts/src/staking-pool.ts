// staking-pool: the interface and share math of NEAR's core staking pool
// (near/core-contracts staking-pool): delegators deposit, stake for "stake shares", unstake
// (withdrawable 4 epochs later) and withdraw; every change re-stakes the pool's total with
// the Stake action and checks the outcome in the on_stake_action callback. Epoch rewards
// (growth of balance + locked) raise the share price, minus the owner's fee paid in shares.
//
// Simplified (see README): `new` does not stake the pool's own balance, so the pool starts at
// zero staked and zero shares (a share is then worth 1 yocto); no pause/key/fee updates.
//
// Storage: "STATE" = borsh(last_epoch_height u64, last_total_balance u128, total_staked_balance
// u128, total_stake_shares u128, fee numerator u32, fee denominator u32, owner_id string,
// stake_public_key string); "u" ‖ borsh(account_id) = borsh(unstaked u128, stake_shares u128,
// unstaked_available_epoch_height u64).
import { stateExists, STATE_KEY } from "../sdk/contract";
import { base58Decode } from "../sdk/base58";
import { BorshReader, BorshWriter } from "../sdk/borsh";
import { Obj, parseArgs, quote } from "../sdk/json";
import {
  accountBalance, accountLockedBalance, attachedDeposit, currentAccountId, epochHeight, input, log, mapKey,
  predecessorAccountId, returnJson, storageRead, storageRemove, storageWrite, utf8,
} from "../sdk/near";
import { panicStr, require } from "../sdk/panic";
import { TGAS, actionFunctionCall, actionStake, actionTransfer, batchCreate, batchThen, promiseResult, promiseResultsCount } from "../sdk/promise";
import { U128 } from "../sdk/u128";

const NUM_EPOCHS_TO_UNLOCK: u64 = 4;
const ON_STAKE_ACTION_GAS: u64 = 20 * TGAS;

class Pool {
  lastEpochHeight: u64 = 0;
  lastTotalBalance: U128 = U128.zero();
  totalStakedBalance: U128 = U128.zero();
  totalStakeShares: U128 = U128.zero();
  feeNumerator: u32 = 0;
  feeDenominator: u32 = 1;
  ownerId: string = "";
  stakePublicKey: string = "";

  static load(): Pool {
    if (!stateExists()) panicStr("Staking contract should be initialized before usage");
    const r = new BorshReader(storageRead(utf8(STATE_KEY))!);
    const p = new Pool();
    p.lastEpochHeight = r.u64();
    p.lastTotalBalance = r.u128();
    p.totalStakedBalance = r.u128();
    p.totalStakeShares = r.u128();
    p.feeNumerator = r.u32();
    p.feeDenominator = r.u32();
    p.ownerId = r.string();
    p.stakePublicKey = r.string();
    return p;
  }

  save(): void {
    storageWrite(
      utf8(STATE_KEY),
      new BorshWriter()
        .u64(this.lastEpochHeight).u128(this.lastTotalBalance).u128(this.totalStakedBalance).u128(this.totalStakeShares)
        .u32(this.feeNumerator).u32(this.feeDenominator).string(this.ownerId).string(this.stakePublicKey)
        .finish(),
    );
  }

  sharesRoundedDown(amount: U128): U128 {
    if (this.totalStakedBalance.isZero()) return amount;
    return this.totalStakeShares.mulDiv(amount, this.totalStakedBalance);
  }

  sharesRoundedUp(amount: U128): U128 {
    require(!this.totalStakedBalance.isZero(), "The total staked balance can't be 0");
    return this.totalStakeShares.mulDivCeil(amount, this.totalStakedBalance);
  }

  amountRoundedDown(shares: U128): U128 {
    if (this.totalStakeShares.isZero()) return shares;
    return this.totalStakedBalance.mulDiv(shares, this.totalStakeShares);
  }

  amountRoundedUp(shares: U128): U128 {
    if (this.totalStakeShares.isZero()) return shares;
    return this.totalStakedBalance.mulDivCeil(shares, this.totalStakeShares);
  }

  /** Distributes rewards once per epoch; true when the epoch changed (so the pool re-stakes). */
  ping(): bool {
    const epoch = epochHeight();
    if (this.lastEpochHeight == epoch) return false;
    this.lastEpochHeight = epoch;
    // attached_deposit is in account_balance already, but not yet accounted for.
    const total = accountLockedBalance().add(accountBalance()).sub(attachedDeposit());
    require(total.ge(this.lastTotalBalance), "The new total balance should not be less than the old total balance");
    const reward = total.sub(this.lastTotalBalance);
    if (!reward.isZero()) {
      // Delegators get the reward minus the owner's fee; the fee buys shares at the new price.
      const fee = reward.mulDiv(U128.from(this.feeNumerator), U128.from(this.feeDenominator));
      this.totalStakedBalance = this.totalStakedBalance.add(reward.sub(fee));
      const shares = this.sharesRoundedDown(fee);
      if (!shares.isZero()) {
        const owner = Account.load(this.ownerId);
        owner.stakeShares = owner.stakeShares.add(shares);
        owner.save(this.ownerId);
        this.totalStakeShares = this.totalStakeShares.add(shares);
      }
      this.totalStakedBalance = this.totalStakedBalance.add(fee);
      log(
        "Epoch " + epoch.toString() + ": Contract received total rewards of " + reward.toString() +
          " tokens. New total staked balance is " + this.totalStakedBalance.toString() +
          ". Total number of shares " + this.totalStakeShares.toString(),
      );
      if (!shares.isZero()) log("Total rewards fee is " + shares.toString() + " stake shares.");
    }
    this.lastTotalBalance = total;
    return true;
  }

  /** Stakes the pool's total with its key, then checks the outcome in on_stake_action. */
  restake(): void {
    const self = currentAccountId();
    const p = batchCreate(self);
    actionStake(p, this.totalStakedBalance, publicKeyBorsh(this.stakePublicKey));
    actionFunctionCall(batchThen(p, self), "on_stake_action", "{}", U128.zero(), ON_STAKE_ACTION_GAS);
  }

  deposit(accountId: string): U128 {
    const account = Account.load(accountId);
    const amount = attachedDeposit();
    account.unstaked = account.unstaked.add(amount);
    account.save(accountId);
    this.lastTotalBalance = this.lastTotalBalance.add(amount);
    log("@" + accountId + " deposited " + amount.toString() + ". New unstaked balance is " + account.unstaked.toString());
    return amount;
  }

  stake(accountId: string, amount: U128): void {
    require(!amount.isZero(), "Staking amount should be positive");
    const account = Account.load(accountId);
    const shares = this.sharesRoundedDown(amount);
    require(!shares.isZero(), "The calculated number of \"stake\" shares received for staking should be positive");
    const charge = this.amountRoundedDown(shares);
    require(!charge.isZero(), "Invariant violation. Calculated staked amount must be positive, because \"stake\" share price should be at least 1");
    require(account.unstaked.ge(charge), "Not enough unstaked balance to stake");
    account.unstaked = account.unstaked.sub(charge);
    account.stakeShares = account.stakeShares.add(shares);
    account.save(accountId);
    const stakeAmount = this.amountRoundedUp(shares);
    this.totalStakedBalance = this.totalStakedBalance.add(stakeAmount);
    this.totalStakeShares = this.totalStakeShares.add(shares);
    log(
      "@" + accountId + " staking " + charge.toString() + ". Received " + shares.toString() + " new staking shares. Total " +
        account.unstaked.toString() + " unstaked balance and " + account.stakeShares.toString() + " staking shares",
    );
    this.logTotals();
  }

  unstake(accountId: string, amount: U128): void {
    require(!amount.isZero(), "Unstaking amount should be positive");
    const account = Account.load(accountId);
    require(!this.totalStakedBalance.isZero(), "The contract doesn't have staked balance");
    const shares = this.sharesRoundedUp(amount);
    require(!shares.isZero(), "Invariant violation. The calculated number of \"stake\" shares for unstaking should be positive");
    require(account.stakeShares.ge(shares), "Not enough staked balance to unstake");
    const receive = this.amountRoundedUp(shares);
    require(!receive.isZero(), "Invariant violation. Calculated staked amount must be positive, because \"stake\" share price should be at least 1");
    account.stakeShares = account.stakeShares.sub(shares);
    account.unstaked = account.unstaked.add(receive);
    account.unstakedAvailableEpochHeight = epochHeight() + NUM_EPOCHS_TO_UNLOCK;
    account.save(accountId);
    const unstakeAmount = this.amountRoundedDown(shares);
    this.totalStakedBalance = this.totalStakedBalance.sub(unstakeAmount);
    this.totalStakeShares = this.totalStakeShares.sub(shares);
    log(
      "@" + accountId + " unstaking " + receive.toString() + ". Spent " + shares.toString() + " staking shares. Total " +
        account.unstaked.toString() + " unstaked balance and " + account.stakeShares.toString() + " staking shares",
    );
    this.logTotals();
  }

  withdraw(accountId: string, amount: U128): void {
    require(!amount.isZero(), "Withdrawal amount should be positive");
    const account = Account.load(accountId);
    require(account.unstaked.ge(amount), "Not enough unstaked balance to withdraw");
    require(account.unstakedAvailableEpochHeight <= epochHeight(), "The unstaked balance is not yet available due to unstaking delay");
    account.unstaked = account.unstaked.sub(amount);
    account.save(accountId);
    log("@" + accountId + " withdrawing " + amount.toString() + ". New unstaked balance is " + account.unstaked.toString());
    actionTransfer(batchCreate(accountId), amount);
    this.lastTotalBalance = this.lastTotalBalance.sub(amount);
  }

  logTotals(): void {
    log("Contract total staked balance is " + this.totalStakedBalance.toString() + ". Total number of shares " + this.totalStakeShares.toString());
  }
}

class Account {
  unstaked: U128 = U128.zero();
  stakeShares: U128 = U128.zero();
  unstakedAvailableEpochHeight: u64 = 0;

  static load(accountId: string): Account {
    const a = new Account();
    const raw = storageRead(mapKey("u", accountId));
    if (raw != null) {
      const r = new BorshReader(raw);
      a.unstaked = r.u128();
      a.stakeShares = r.u128();
      a.unstakedAvailableEpochHeight = r.u64();
    }
    return a;
  }

  save(accountId: string): void {
    if (this.unstaked.isZero() && this.stakeShares.isZero()) {
      storageRemove(mapKey("u", accountId));
      return;
    }
    storageWrite(mapKey("u", accountId), new BorshWriter().u128(this.unstaked).u128(this.stakeShares).u64(this.unstakedAvailableEpochHeight).finish());
  }
}

/** "ed25519:<base58 32 bytes>" or "secp256k1:<base58 64 bytes>" → borsh PublicKey. */
function publicKeyBorsh(key: string): Uint8Array {
  const colon = key.indexOf(":");
  const curve = colon < 0 ? "ed25519" : key.substring(0, colon);
  const data = base58Decode(key.substring(colon + 1));
  const type: u8 = curve == "ed25519" ? 0 : curve == "secp256k1" ? 1 : 255;
  const len = type == 0 ? 32 : 64;
  if (data == null || type == 255 || data.length != len) panicStr("Invalid staking public key");
  const out = new Uint8Array(1 + len);
  out[0] = type;
  out.set(data!, 1);
  return out;
}

/** new({owner_id, stake_public_key, reward_fee_fraction: {numerator, denominator}}). */
function init(): void {
  require(!stateExists(), "Already initialized");
  const args = parseArgs(input());
  const fee = args.get("reward_fee_fraction");
  if (fee == null) panicStr("Failed to deserialize input from JSON.");
  const numerator = fee!.optNumberU64("numerator", u64.MAX_VALUE);
  const denominator = fee!.optNumberU64("denominator", u64.MAX_VALUE);
  if (numerator > u32.MAX_VALUE || denominator > u32.MAX_VALUE) panicStr("Failed to deserialize input from JSON.");
  require(denominator != 0, "Denominator must be a positive number");
  require(numerator <= denominator, "The reward fee must be less or equal to 1");
  require(accountLockedBalance().isZero(), "The staking pool shouldn't be staking at the initialization");
  const pool = new Pool();
  pool.ownerId = args.str("owner_id");
  pool.stakePublicKey = args.str("stake_public_key");
  publicKeyBorsh(pool.stakePublicKey);
  pool.feeNumerator = <u32>numerator;
  pool.feeDenominator = <u32>denominator;
  pool.lastEpochHeight = epochHeight();
  pool.lastTotalBalance = accountBalance();
  pool.save();
}
export { init as new };

/** ping(): distributes rewards of a new epoch and re-stakes. */
export function ping(): void {
  const pool = Pool.load();
  if (pool.ping()) pool.restake();
  pool.save();
}

/** deposit() (payable): adds the deposit to the caller's unstaked balance. */
export function deposit(): void {
  const pool = Pool.load();
  const restake = pool.ping();
  pool.deposit(predecessorAccountId());
  if (restake) pool.restake();
  pool.save();
}

/** deposit_and_stake() (payable): deposits and stakes the deposit. */
export function deposit_and_stake(): void {
  const pool = Pool.load();
  pool.ping();
  const account = predecessorAccountId();
  pool.stake(account, pool.deposit(account));
  pool.restake();
  pool.save();
}

/** stake({amount}): stakes part of the caller's unstaked balance. */
export function stake(): void {
  const pool = Pool.load();
  pool.ping();
  pool.stake(predecessorAccountId(), parseArgs(input()).u128("amount"));
  pool.restake();
  pool.save();
}

/** stake_all(): stakes the caller's whole unstaked balance. */
export function stake_all(): void {
  const pool = Pool.load();
  pool.ping();
  const id = predecessorAccountId();
  pool.stake(id, Account.load(id).unstaked);
  pool.restake();
  pool.save();
}

/** unstake({amount}): unstakes; the amount is withdrawable after 4 epochs. */
export function unstake(): void {
  const pool = Pool.load();
  pool.ping();
  pool.unstake(predecessorAccountId(), parseArgs(input()).u128("amount"));
  pool.restake();
  pool.save();
}

export function unstake_all(): void {
  const pool = Pool.load();
  pool.ping();
  const id = predecessorAccountId();
  pool.unstake(id, pool.amountRoundedDown(Account.load(id).stakeShares));
  pool.restake();
  pool.save();
}

/** withdraw({amount}): sends unstaked, available balance back to the caller. */
export function withdraw(): void {
  const pool = Pool.load();
  const restake = pool.ping();
  pool.withdraw(predecessorAccountId(), parseArgs(input()).u128("amount"));
  if (restake) pool.restake();
  pool.save();
}

export function withdraw_all(): void {
  const pool = Pool.load();
  const restake = pool.ping();
  const id = predecessorAccountId();
  pool.withdraw(id, Account.load(id).unstaked);
  if (restake) pool.restake();
  pool.save();
}

/** Callback of every restake: if the Stake action failed while stake is locked, unstakes everything. */
export function on_stake_action(): void {
  require(currentAccountId() == predecessorAccountId(), "Can be called only as a callback");
  require(promiseResultsCount() == 1, "Contract expected a result on the callback");
  const ok = promiseResult(0).successful;
  if (!ok && !accountLockedBalance().isZero()) {
    const pool = Pool.load();
    actionStake(batchCreate(currentAccountId()), U128.zero(), publicKeyBorsh(pool.stakePublicKey));
  }
}

function staked(pool: Pool, a: Account): U128 {
  return pool.amountRoundedDown(a.stakeShares);
}

function accountArg(): string {
  return parseArgs(input()).str("account_id");
}

export function get_account_staked_balance(): void {
  const pool = Pool.load();
  returnJson(quote(staked(pool, Account.load(accountArg())).toString()));
}

export function get_account_unstaked_balance(): void {
  Pool.load();
  returnJson(quote(Account.load(accountArg()).unstaked.toString()));
}

export function is_account_unstaked_balance_available(): void {
  Pool.load();
  returnJson(Account.load(accountArg()).unstakedAvailableEpochHeight <= epochHeight() ? "true" : "false");
}

export function get_account_total_balance(): void {
  const pool = Pool.load();
  const a = Account.load(accountArg());
  returnJson(quote(a.unstaked.add(staked(pool, a)).toString()));
}

/** get_account({account_id}) → {account_id, unstaked_balance, staked_balance, can_withdraw}. */
export function get_account(): void {
  const pool = Pool.load();
  const id = accountArg();
  const a = Account.load(id);
  returnJson(
    new Obj().str("account_id", id).u128("unstaked_balance", a.unstaked).u128("staked_balance", staked(pool, a))
      .bool("can_withdraw", a.unstakedAvailableEpochHeight <= epochHeight()).build(),
  );
}

export function get_total_staked_balance(): void {
  returnJson(quote(Pool.load().totalStakedBalance.toString()));
}

export function get_owner_id(): void {
  returnJson(quote(Pool.load().ownerId));
}

export function get_staking_key(): void {
  returnJson(quote(Pool.load().stakePublicKey));
}

/** This pool has no pause/resume methods (contracts/README.md), so it always stakes. */
export function is_staking_paused(): void {
  Pool.load();
  returnJson("false");
}

export function get_reward_fee_fraction(): void {
  const pool = Pool.load();
  returnJson(new Obj().num("numerator", pool.feeNumerator).num("denominator", pool.feeDenominator).build());
}
