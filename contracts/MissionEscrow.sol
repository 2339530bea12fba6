// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

/// @title MissionEscrow — AIP-1 §6 reward escrow for the OABP server's `base` rail.
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
///      the amount is credited to that recipient, who withdraws it later (to any address), so one
///      recipient never blocks the others or the treasury.
contract MissionEscrow is AccessControl, ReentrancyGuard {
    using SafeERC20 for IERC20;

    bytes32 public constant RESOLVER_ROLE = keccak256("RESOLVER_ROLE");
    /// @notice Upper bound of the fee cap an admin can set: 10 %. AIP-1 §6 RECOMMENDS ≤ 1 %.
    uint16 public constant MAX_FEE_CAP_BPS = 1_000;
    /// @notice Bounded loop: a release pays at most this many recipients.
    uint256 public constant MAX_RECIPIENTS = 64;

    struct Deposit {
        address token;
        uint256 amount;
    }

    mapping(bytes32 missionKey => mapping(address funder => Deposit)) private _deposits;
    mapping(bytes32 missionKey => bool) public released;
    mapping(address token => mapping(address account => uint256)) public credits;
    address public treasury;
    /// @notice The largest fee a release may route to the treasury, in bps of (paid + fee).
    uint16 public feeCapBps;

    event Funded(bytes32 indexed missionKey, address indexed funder, address indexed token, uint256 amount, uint256 spamFee);
    event Released(bytes32 indexed missionKey, address indexed funder, address indexed token, uint256 paid, uint256 fee, uint256 returned);
    event Refunded(bytes32 indexed missionKey, address indexed funder, address indexed token, uint256 amount);
    event Reclaimed(bytes32 indexed missionKey, address indexed funder, address indexed token, uint256 amount);
    event Paid(bytes32 indexed missionKey, address indexed token, address indexed to, uint256 amount);
    event Credited(bytes32 indexed missionKey, address indexed token, address indexed to, uint256 amount);
    event Withdrawn(address indexed token, address indexed account, address to, uint256 amount);
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

    constructor(address admin, address resolver, address treasury_, uint16 feeCapBps_) {
        if (admin == address(0) || resolver == address(0) || treasury_ == address(0)) revert ZeroAddress();
        if (feeCapBps_ > MAX_FEE_CAP_BPS) revert FeeCapTooHigh(feeCapBps_);
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(RESOLVER_ROLE, resolver);
        treasury = treasury_;
        feeCapBps = feeCapBps_;
        emit TreasuryChanged(treasury_);
        emit FeeCapChanged(feeCapBps_);
    }

    // ── Funding ──────────────────────────────────────────────────────────────────────────────

    /// @notice Escrows `amount` of `token` for `missionKey` and pays `spamFee` to the treasury.
    ///         Needs an allowance of `amount + spamFee` (approve first, or use fundWithPermit).
    function fund(bytes32 missionKey, address token, uint256 amount, uint256 spamFee) external nonReentrant {
        _fund(missionKey, token, amount, spamFee);
    }

    /// @notice fund() after an EIP-2612 permit for `amount + spamFee` (USDC supports it). A permit
    ///         that fails (e.g. front-run: someone already submitted it) is ignored — the allowance
    ///         check inside transferFrom is what decides.
    function fundWithPermit(
        bytes32 missionKey, address token, uint256 amount, uint256 spamFee,
        uint256 permitDeadline, uint8 v, bytes32 r, bytes32 s
    ) external nonReentrant {
        try IERC20Permit(token).permit(msg.sender, address(this), amount + spamFee, permitDeadline, v, r, s) {} catch {}
        _fund(missionKey, token, amount, spamFee);
    }

    function _fund(bytes32 missionKey, address token, uint256 amount, uint256 spamFee) private {
        if (token == address(0)) revert ZeroAddress();
        if (amount == 0) revert ZeroAmount();
        if (released[missionKey]) revert AlreadyReleased(missionKey);
        Deposit storage d = _deposits[missionKey][msg.sender];
        if (d.amount != 0) revert AlreadyFunded(missionKey, msg.sender);
        // Effects before interactions (and nonReentrant besides).
        d.token = token;
        d.amount = amount;
        uint256 total = amount + spamFee;
        uint256 before = IERC20(token).balanceOf(address(this));
        IERC20(token).safeTransferFrom(msg.sender, address(this), total);
        // Fee-on-transfer or rebasing tokens would break the books: refuse them.
        if (IERC20(token).balanceOf(address(this)) - before != total) revert UnsupportedToken(token);
        emit Funded(missionKey, msg.sender, token, amount, spamFee);
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
        emit Reclaimed(missionKey, msg.sender, d.token, d.amount);
        // Guarded like every payment: a funder the token blacklisted since gets a credit instead,
        // and withdraws it to another address.
        _pay(missionKey, d.token, msg.sender, d.amount);
    }

    /// @notice Withdraws what a failed push credited to the caller, to `to` (a recipient the token
    ///         blacklisted can name a new address).
    function withdraw(address token, address to) external nonReentrant {
        if (to == address(0)) revert ZeroAddress();
        uint256 amount = credits[token][msg.sender];
        if (amount == 0) revert NothingToWithdraw();
        credits[token][msg.sender] = 0;
        emit Withdrawn(token, msg.sender, to, amount);
        IERC20(token).safeTransfer(to, amount);
    }

    function depositOf(bytes32 missionKey, address funder) external view returns (address token, uint256 amount) {
        Deposit memory d = _deposits[missionKey][funder];
        return (d.token, d.amount);
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

    // ── Internals ────────────────────────────────────────────────────────────────────────────

    /// @dev Guarded push: a transfer that reverts or returns false credits the amount instead.
    function _pay(bytes32 missionKey, address token, address to, uint256 amount) private {
        if (amount == 0) return;
        if (IERC20(token).trySafeTransfer(to, amount)) {
            emit Paid(missionKey, token, to, amount);
        } else {
            credits[token][to] += amount;
            emit Credited(missionKey, token, to, amount);
        }
    }
}
