// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControlDefaultAdminRules} from "@openzeppelin/contracts/access/extensions/AccessControlDefaultAdminRules.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

/// @title MissionEscrowV2 — (legacy, kept for migration tests and deployed v2 instances) AIP-1 §6 reward escrow for the OABP server's `base` rail.
/// @notice A creator funds a mission key (`keccak256(bytes(mission_id))`) with an ERC-20; the spam
///         fee goes to the treasury at once, the reward stays here. The operator's resolver then
///         either releases the deposit to the winners (minus the protocol fee, to the treasury) —
///         at most once per mission key — or refunds it to the funder after a void.
/// @dev Deposits are kept per (mission key, funder): anyone who learns a mission key (it is public
///      once a funding transaction is in a block) cannot grief the creator's slot by funding it
///      first. The server binds exactly one slot to the mission; any other slot of a key is a stray
///      deposit the resolver can refund and its funder can reclaim once the key is released.
///
///      Payments are guarded pushes with a pull fallback: a transfer to a recipient that cannot
///      receive (blacklisted by the token, or a reverting token hook) does not revert the release —
///      the amount is credited to that recipient, who withdraws it later to itself only (a
///      blacklisted account stays unpaid until the token lets it receive), so one recipient never
///      blocks the others or the treasury.
///
///      v2 bounds the operator (docs/base-rail.md "Trust model"): the admin changes by a two-step
///      transfer with a delay (AccessControlDefaultAdminRules), and a new resolver only after the
///      same delay; every slot carries a refund-after time fixed at funding, after which its funder
///      alone can take an unreleased deposit back; the admin can sweep only tokens nobody is owed.
contract MissionEscrowV2 is AccessControlDefaultAdminRules, ReentrancyGuard {
    using SafeERC20 for IERC20;

    bytes32 public constant RESOLVER_ROLE = keccak256("RESOLVER_ROLE");
    /// @notice Upper bound of the fee cap an admin can set: 10 %. AIP-1 §6 RECOMMENDS ≤ 1 %.
    uint16 public constant MAX_FEE_CAP_BPS = 1_000;
    /// @notice Bounded loop: a release pays at most this many recipients.
    uint256 public constant MAX_RECIPIENTS = 64;
    /// @notice fund() without an explicit refund-after time: the funder's exit opens this long after funding.
    uint256 public constant DEFAULT_REFUND_DELAY = 365 days;
    /// @notice A refund-after time is at most this far in the future (a slot cannot be locked for ever).
    uint256 public constant MAX_REFUND_DELAY = 2 * 365 days;

    struct Deposit {
        address token;
        uint256 amount;
        uint64 refundAfter;
    }

    mapping(bytes32 missionKey => mapping(address funder => Deposit)) private _deposits;
    mapping(bytes32 missionKey => bool) public released;
    mapping(address token => mapping(address account => uint256)) public credits;
    /// @notice Per token: what the contract owes (live slots + credits). Anything above is surplus.
    mapping(address token => uint256) public held;
    /// @notice A resolver proposed by the admin, grantable by anyone from `pendingResolverAt`.
    address public pendingResolver;
    uint48 public pendingResolverAt;
    address public treasury;
    /// @notice The largest fee a release may route to the treasury, in bps of (paid + fee).
    uint16 public feeCapBps;

    event Funded(bytes32 indexed missionKey, address indexed funder, address indexed token, uint256 amount, uint256 spamFee, uint64 refundAfter);
    event Released(bytes32 indexed missionKey, address indexed funder, address indexed token, uint256 paid, uint256 fee, uint256 returned);
    event Refunded(bytes32 indexed missionKey, address indexed funder, address indexed token, uint256 amount);
    event Reclaimed(bytes32 indexed missionKey, address indexed funder, address indexed token, uint256 amount);
    event Paid(bytes32 indexed missionKey, address indexed token, address indexed to, uint256 amount);
    event Credited(bytes32 indexed missionKey, address indexed token, address indexed to, uint256 amount);
    event Withdrawn(address indexed token, address indexed account, uint256 amount);
    event SelfRefunded(bytes32 indexed missionKey, address indexed funder, address indexed token, uint256 amount);
    event Swept(address indexed token, address to, uint256 amount);
    event ResolverProposed(address resolver, uint48 activeFrom);
    event TreasuryChanged(address treasury);
    event FeeCapChanged(uint16 feeCapBps);

    error ZeroAddress();
    error ZeroAmount();
    error AlreadyFunded(bytes32 missionKey, address funder);
    error AlreadyReleased(bytes32 missionKey);
    error NotFunded(bytes32 missionKey, address funder);
    error NotReleased(bytes32 missionKey);
    error BadRecipients();
    error ExceedsDeposit(uint256 total, uint256 deposit);
    error FeeTooHigh(uint256 fee, uint256 cap);
    error FeeCapTooHigh(uint16 feeCapBps);
    error UnsupportedToken(address token);
    error NothingToWithdraw();
    error BadRefundAfter(uint256 refundAfter);
    error RefundNotYet(uint256 refundAfter);
    error UseProposeResolver();
    error ResolverNotReady(uint256 activeFrom);

    /// @param adminDelay seconds a new admin (and a new resolver) waits before it takes effect.
    constructor(address admin, address resolver, address treasury_, uint16 feeCapBps_, uint48 adminDelay)
        AccessControlDefaultAdminRules(adminDelay, admin)
    {
        if (admin == address(0) || resolver == address(0) || treasury_ == address(0)) revert ZeroAddress();
        if (feeCapBps_ > MAX_FEE_CAP_BPS) revert FeeCapTooHigh(feeCapBps_);
        _grantRole(RESOLVER_ROLE, resolver);
        treasury = treasury_;
        feeCapBps = feeCapBps_;
        emit TreasuryChanged(treasury_);
        emit FeeCapChanged(feeCapBps_);
    }

    // ── Funding ──────────────────────────────────────────────────────────────────────────────

    /// @notice Escrows `amount` of `token` for `missionKey` and pays `spamFee` to the treasury.
    ///         Needs an allowance of `amount + spamFee` (approve first, or use fundWithPermit).
    ///         The funder may take the deposit back itself DEFAULT_REFUND_DELAY after funding if it
    ///         has not been released by then (fundUntil names another time).
    function fund(bytes32 missionKey, address token, uint256 amount, uint256 spamFee) external nonReentrant {
        _fund(missionKey, token, amount, spamFee, block.timestamp + DEFAULT_REFUND_DELAY);
    }

    /// @notice fund() with the refund-after time the server asks for (the mission's deadline +
    ///         judging window + grace): from then on, an unreleased deposit is its funder's to take back.
    function fundUntil(bytes32 missionKey, address token, uint256 amount, uint256 spamFee, uint256 refundAfter) external nonReentrant {
        _fund(missionKey, token, amount, spamFee, refundAfter);
    }

    /// @notice fund() after an EIP-2612 permit for `amount + spamFee` (USDC supports it). A permit
    ///         that fails (e.g. front-run: someone already submitted it) is ignored — the allowance
    ///         check inside transferFrom is what decides.
    function fundWithPermit(
        bytes32 missionKey, address token, uint256 amount, uint256 spamFee,
        uint256 permitDeadline, uint8 v, bytes32 r, bytes32 s
    ) external nonReentrant {
        try IERC20Permit(token).permit(msg.sender, address(this), amount + spamFee, permitDeadline, v, r, s) {} catch {}
        _fund(missionKey, token, amount, spamFee, block.timestamp + DEFAULT_REFUND_DELAY);
    }

    function _fund(bytes32 missionKey, address token, uint256 amount, uint256 spamFee, uint256 refundAfter) private {
        if (token == address(0)) revert ZeroAddress();
        if (amount == 0) revert ZeroAmount();
        if (refundAfter <= block.timestamp || refundAfter > block.timestamp + MAX_REFUND_DELAY) revert BadRefundAfter(refundAfter);
        if (released[missionKey]) revert AlreadyReleased(missionKey);
        Deposit storage d = _deposits[missionKey][msg.sender];
        if (d.amount != 0) revert AlreadyFunded(missionKey, msg.sender);
        // Effects before interactions (and nonReentrant besides).
        d.token = token;
        d.amount = amount;
        d.refundAfter = uint64(refundAfter);
        held[token] += amount;
        uint256 total = amount + spamFee;
        uint256 before = IERC20(token).balanceOf(address(this));
        IERC20(token).safeTransferFrom(msg.sender, address(this), total);
        // Fee-on-transfer or rebasing tokens would break the books: refuse them.
        if (IERC20(token).balanceOf(address(this)) - before != total) revert UnsupportedToken(token);
        emit Funded(missionKey, msg.sender, token, amount, spamFee, uint64(refundAfter));
        _pay(missionKey, token, treasury, spamFee);
    }

    // ── Settlement (resolver only) ───────────────────────────────────────────────────────────

    /// @notice Pays `amounts[i]` to `recipients[i]` and `fee` to the treasury from `funder`'s
    ///         deposit for `missionKey`; whatever is left of the deposit returns to the funder.
    ///         At most once per mission key.
    function release(
        bytes32 missionKey, address funder, address[] calldata recipients, uint256[] calldata amounts, uint256 fee
    ) external onlyRole(RESOLVER_ROLE) nonReentrant {
        if (released[missionKey]) revert AlreadyReleased(missionKey);
        Deposit memory d = _deposits[missionKey][funder];
        if (d.amount == 0) revert NotFunded(missionKey, funder);
        uint256 n = recipients.length;
        if (n == 0 || n != amounts.length || n > MAX_RECIPIENTS) revert BadRecipients();
        uint256 paid;
        for (uint256 i; i < n; ++i) {
            if (recipients[i] == address(0)) revert ZeroAddress();
            paid += amounts[i];
        }
        uint256 total = paid + fee;
        if (total > d.amount) revert ExceedsDeposit(total, d.amount);
        uint256 cap = (total * feeCapBps) / 10_000;
        if (fee > cap) revert FeeTooHigh(fee, cap);

        released[missionKey] = true;
        delete _deposits[missionKey][funder];
        held[d.token] -= d.amount;
        uint256 returned = d.amount - total;
        emit Released(missionKey, funder, d.token, paid, fee, returned);
        for (uint256 i; i < n; ++i) _pay(missionKey, d.token, recipients[i], amounts[i]);
        _pay(missionKey, d.token, treasury, fee);
        _pay(missionKey, d.token, funder, returned);
    }

    /// @notice Returns `funder`'s whole deposit for `missionKey` (a voided mission, or a deposit
    ///         the server rejected). The spam fee is not refunded: it was paid at funding.
    function refund(bytes32 missionKey, address funder) external onlyRole(RESOLVER_ROLE) nonReentrant {
        Deposit memory d = _deposits[missionKey][funder];
        if (d.amount == 0) revert NotFunded(missionKey, funder);
        delete _deposits[missionKey][funder];
        held[d.token] -= d.amount;
        emit Refunded(missionKey, funder, d.token, d.amount);
        _pay(missionKey, d.token, funder, d.amount);
    }

    // ── Self-service ─────────────────────────────────────────────────────────────────────────

    /// @notice A stray deposit (a slot the release did not use) goes back to its funder once the
    ///         mission key has been released; before that only the resolver can return it.
    function reclaim(bytes32 missionKey) external nonReentrant {
        if (!released[missionKey]) revert NotReleased(missionKey);
        Deposit memory d = _deposits[missionKey][msg.sender];
        if (d.amount == 0) revert NotFunded(missionKey, msg.sender);
        delete _deposits[missionKey][msg.sender];
        held[d.token] -= d.amount;
        emit Reclaimed(missionKey, msg.sender, d.token, d.amount);
        // Guarded like every payment: a funder the token blacklisted since gets a credit instead,
        // and withdraws it to another address.
        _pay(missionKey, d.token, msg.sender, d.amount);
    }

    /// @notice The funder's own exit: a slot not released by its refund-after time (fixed at
    ///         funding) goes back to its funder, without the operator.
    function selfRefund(bytes32 missionKey) external nonReentrant {
        Deposit memory d = _deposits[missionKey][msg.sender];
        if (d.amount == 0) revert NotFunded(missionKey, msg.sender);
        if (block.timestamp < d.refundAfter) revert RefundNotYet(d.refundAfter);
        delete _deposits[missionKey][msg.sender];
        held[d.token] -= d.amount;
        emit SelfRefunded(missionKey, msg.sender, d.token, d.amount);
        _pay(missionKey, d.token, msg.sender, d.amount);
    }

    /// @notice Withdraws what a failed push credited to the caller, to the caller only: a
    ///         recipient the token blacklisted cannot redirect it to a fresh address.
    function withdraw(address token) external nonReentrant {
        uint256 amount = credits[token][msg.sender];
        if (amount == 0) revert NothingToWithdraw();
        credits[token][msg.sender] = 0;
        held[token] -= amount;
        emit Withdrawn(token, msg.sender, amount);
        IERC20(token).safeTransfer(msg.sender, amount);
    }

    function depositOf(bytes32 missionKey, address funder) external view returns (address token, uint256 amount) {
        Deposit memory d = _deposits[missionKey][funder];
        return (d.token, d.amount);
    }

    function refundAfterOf(bytes32 missionKey, address funder) external view returns (uint64) {
        return _deposits[missionKey][funder].refundAfter;
    }

    // ── Admin ────────────────────────────────────────────────────────────────────────────────

    function setTreasury(address treasury_) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (treasury_ == address(0)) revert ZeroAddress();
        treasury = treasury_;
        emit TreasuryChanged(treasury_);
    }

    function setFeeCapBps(uint16 feeCapBps_) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (feeCapBps_ > MAX_FEE_CAP_BPS) revert FeeCapTooHigh(feeCapBps_);
        feeCapBps = feeCapBps_;
        emit FeeCapChanged(feeCapBps_);
    }

    /// @notice Tokens sent here outside fund() (surplus: the balance above what slots and
    ///         credits hold) go to `to`. Never touches a slot or a credit.
    function sweep(address token, address to) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        if (to == address(0)) revert ZeroAddress();
        uint256 balance = IERC20(token).balanceOf(address(this));
        uint256 surplus = balance > held[token] ? balance - held[token] : 0;
        if (surplus == 0) revert NothingToWithdraw();
        emit Swept(token, to, surplus);
        IERC20(token).safeTransfer(to, surplus);
    }

    /// @notice A new resolver takes office only after the admin delay (as a new admin does), so
    ///         the admin cannot make itself resolver and release at once.
    function proposeResolver(address resolver) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (resolver == address(0)) revert ZeroAddress();
        pendingResolver = resolver;
        pendingResolverAt = uint48(block.timestamp) + defaultAdminDelay();
        emit ResolverProposed(resolver, pendingResolverAt);
    }

    function activateResolver() external {
        address r = pendingResolver;
        if (r == address(0)) revert ZeroAddress();
        if (block.timestamp < pendingResolverAt) revert ResolverNotReady(pendingResolverAt);
        delete pendingResolver;
        delete pendingResolverAt;
        _grantRole(RESOLVER_ROLE, r);
    }

    /// @dev RESOLVER_ROLE is granted only through proposeResolver + activateResolver (revoking
    ///      stays immediate: removing power needs no delay).
    function grantRole(bytes32 role, address account) public override {
        if (role == RESOLVER_ROLE) revert UseProposeResolver();
        super.grantRole(role, account);
    }

    // ── Internals ────────────────────────────────────────────────────────────────────────────

    /// @dev Guarded push: a transfer that reverts or returns false credits the amount instead.
    function _pay(bytes32 missionKey, address token, address to, uint256 amount) private {
        if (amount == 0) return;
        if (IERC20(token).trySafeTransfer(to, amount)) {
            emit Paid(missionKey, token, to, amount);
        } else {
            credits[token][to] += amount;
            held[token] += amount;
            emit Credited(missionKey, token, to, amount);
        }
    }
}
