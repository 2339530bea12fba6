// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControlDefaultAdminRules} from "@openzeppelin/contracts/access/extensions/AccessControlDefaultAdminRules.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";

/// @title MissionEscrowV3 — (legacy, kept for migration tests and deployed v3 instances) AIP-1 §6 reward escrow for the OABP server's `base` rail.
/// @notice A creator funds a mission key (`keccak256(bytes(mission_id))`) with an ERC-20; the spam
///         fee goes to the treasury at once, the reward stays here. A deposit leaves the escrow by
///         one of: a release the funder signed (EIP-712, `releaseSigned`); a release the resolver
///         proposed and anyone executes after `releaseDelay`, within a per-period cap
///         (`proposeRelease` / `executeRelease`), which the guardian can cancel or pause; a refund
///         to its own funder (resolver); or the funder's own exit (`selfRefund`, `reclaim`).
/// @dev Threat model (docs/base-rail.md "Trust model"): the resolver key is hot and will be stolen
///      some day; the admin (a Safe) may be compromised. So a resolver alone cannot pay a stranger
///      at once nor beyond the cap, and every admin power is announced ahead: while a resolver,
///      guardian, admin or admin-delay change is pending, every slot funded before it was proposed
///      may exit at once.
///
///      Kept from v2: per-(key, funder) slots, once-per-key release, guarded push with pull
///      credits (withdraw to self only), refund-after exits, reclaim of stray slots, sweep of
///      surplus only, two-step admin with delay, 64-recipient bound, fee cap, fee-on-transfer refusal.
contract MissionEscrowV3 is AccessControlDefaultAdminRules, ReentrancyGuard, Pausable, EIP712 {
    using SafeERC20 for IERC20;

    bytes32 public constant RESOLVER_ROLE = keccak256("RESOLVER_ROLE");
    bytes32 public constant GUARDIAN_ROLE = keccak256("GUARDIAN_ROLE");
    bytes32 public constant RELEASE_TYPEHASH =
        keccak256("Release(bytes32 missionKey,address funder,address[] recipients,uint256[] amounts,uint256 fee)");
    /// @notice Upper bound of the fee cap: 10 %. AIP-1 §6 RECOMMENDS ≤ 1 %.
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
        uint64 fundedAt;
    }

    struct Proposal {
        bytes32 hash;
        uint64 executableAt;
    }

    mapping(bytes32 missionKey => mapping(address funder => Deposit)) private _deposits;
    mapping(bytes32 missionKey => mapping(address funder => Proposal)) private _proposals;
    mapping(bytes32 missionKey => bool) public released;
    mapping(address token => mapping(address account => uint256)) public credits;
    /// @notice Per token: what the contract owes (live slots + credits). Anything above is surplus.
    mapping(address token => uint256) public held;
    /// @notice Per token: the most the delayed path may pay out (paid + fee) per cap period.
    mapping(address token => uint256) public releaseCap;
    mapping(address token => uint256) private _capWindow;
    mapping(address token => uint256) private _capUsed;

    /// @notice Challenge window of the delayed path (seconds from proposal to executable).
    uint48 public immutable releaseDelay;
    /// @notice Length of a cap window (seconds); windows are `block.timestamp / capPeriod`.
    uint48 public immutable capPeriod;

    /// @notice A resolver proposed by the admin, activatable by anyone from `pendingResolverAt`.
    address public pendingResolver;
    uint48 public pendingResolverAt;
    uint64 private _resolverProposedAt;
    /// @notice The guardian in office. Replaced only through proposeGuardian + activateGuardian (the
    ///         admin cannot revoke it at once: removing the veto is a change funders see coming).
    address public activeGuardian;
    address public pendingGuardian;
    uint48 public pendingGuardianAt;
    uint64 private _guardianProposedAt;
    uint64 private _adminTransferProposedAt;
    uint64 private _adminDelayProposedAt;

    address public treasury;
    /// @notice The largest fee a release may route to the treasury, in bps of (paid + fee). Only lowers.
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
    event ReleaseProposed(
        bytes32 indexed missionKey, address indexed funder, bytes32 proposalHash,
        address[] recipients, uint256[] amounts, uint256 fee, uint64 executableAt
    );
    event ReleaseCancelled(bytes32 indexed missionKey, address indexed funder, bytes32 proposalHash);
    event ReleaseCapLowered(address indexed token, uint256 cap);
    event ResolverProposed(address resolver, uint48 activeFrom);
    event ResolverActivated(address resolver);
    event ResolverProposalCancelled(address resolver);
    event GuardianProposed(address guardian, uint48 activeFrom);
    event GuardianActivated(address guardian);
    event GuardianProposalCancelled(address guardian);
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
    error UseProposeGuardian();
    error ResolverNotReady(uint256 activeFrom);
    error GuardianNotReady(uint256 activeFrom);
    error BadFunderSignature();
    error ReleasePending(bytes32 missionKey, address funder);
    error NoProposal(bytes32 missionKey, address funder);
    error ProposalMismatch();
    error ReleaseNotReady(uint64 executableAt);
    error CapExceeded(address token, uint256 requested, uint256 available);
    error CapNotLower();
    error BadCaps();

    /// @param adminDelay seconds a new admin, resolver or guardian waits before it takes effect.
    /// @param releaseDelay_ challenge window of the delayed path (seconds).
    /// @param capPeriod_ cap window length (seconds, > 0); `caps[i]` is the delayed path's budget
    ///        per window for `capTokens[i]` (a token without a cap cannot use the delayed path).
    constructor(
        address admin, address resolver, address guardian, address treasury_, uint16 feeCapBps_,
        uint48 adminDelay, uint48 releaseDelay_, uint48 capPeriod_, address[] memory capTokens, uint256[] memory caps
    ) AccessControlDefaultAdminRules(adminDelay, admin) EIP712("MissionEscrow", "3") {
        if (resolver == address(0) || guardian == address(0) || treasury_ == address(0)) revert ZeroAddress();
        if (feeCapBps_ > MAX_FEE_CAP_BPS) revert FeeCapTooHigh(feeCapBps_);
        if (capPeriod_ == 0 || capTokens.length != caps.length) revert BadCaps();
        _grantRole(RESOLVER_ROLE, resolver);
        _grantRole(GUARDIAN_ROLE, guardian);
        activeGuardian = guardian;
        treasury = treasury_;
        feeCapBps = feeCapBps_;
        releaseDelay = releaseDelay_;
        capPeriod = capPeriod_;
        for (uint256 i; i < caps.length; ++i) {
            if (capTokens[i] == address(0)) revert ZeroAddress();
            releaseCap[capTokens[i]] = caps[i];
        }
        emit TreasuryChanged(treasury_);
        emit FeeCapChanged(feeCapBps_);
    }

    function version() external pure returns (string memory) {
        return "3";
    }

    // ── Funding ──────────────────────────────────────────────────────────────────────────────

    /// @notice Escrows `amount` of `token` for `missionKey` and pays `spamFee` to the treasury.
    ///         Needs an allowance of `amount + spamFee`. The funder may take the deposit back itself
    ///         DEFAULT_REFUND_DELAY after funding if unreleased (fundUntil names another time).
    function fund(bytes32 missionKey, address token, uint256 amount, uint256 spamFee) external nonReentrant {
        _fund(missionKey, token, amount, spamFee, block.timestamp + DEFAULT_REFUND_DELAY);
    }

    /// @notice fund() with the refund-after time the server asks for (the mission's deadline +
    ///         judging window + grace): from then on, an unreleased deposit is its funder's to take back.
    function fundUntil(bytes32 missionKey, address token, uint256 amount, uint256 spamFee, uint256 refundAfter)
        external nonReentrant
    {
        _fund(missionKey, token, amount, spamFee, refundAfter);
    }

    /// @notice fund() after an EIP-2612 permit for `amount + spamFee`. A failing permit (e.g.
    ///         front-run: someone already submitted it) is ignored; transferFrom's allowance check decides.
    function fundWithPermit(
        bytes32 missionKey, address token, uint256 amount, uint256 spamFee,
        uint256 permitDeadline, uint8 v, bytes32 r, bytes32 s
    ) external nonReentrant {
        _permit(token, amount + spamFee, permitDeadline, v, r, s);
        _fund(missionKey, token, amount, spamFee, block.timestamp + DEFAULT_REFUND_DELAY);
    }

    /// @notice fundUntil() after an EIP-2612 permit for `amount + spamFee` (one signature, one tx).
    function fundUntilWithPermit(
        bytes32 missionKey, address token, uint256 amount, uint256 spamFee, uint256 refundAfter,
        uint256 permitDeadline, uint8 v, bytes32 r, bytes32 s
    ) external nonReentrant {
        _permit(token, amount + spamFee, permitDeadline, v, r, s);
        _fund(missionKey, token, amount, spamFee, refundAfter);
    }

    function _permit(address token, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) private {
        try IERC20Permit(token).permit(msg.sender, address(this), value, deadline, v, r, s) {} catch {}
    }

    function _fund(bytes32 missionKey, address token, uint256 amount, uint256 spamFee, uint256 refundAfter) private {
        if (token == address(0)) revert ZeroAddress();
        if (amount == 0) revert ZeroAmount();
        if (refundAfter <= block.timestamp || refundAfter > block.timestamp + MAX_REFUND_DELAY) revert BadRefundAfter(refundAfter);
        if (released[missionKey]) revert AlreadyReleased(missionKey);
        Deposit storage d = _deposits[missionKey][msg.sender];
        if (d.amount != 0) revert AlreadyFunded(missionKey, msg.sender);
        d.token = token;
        d.amount = amount;
        d.refundAfter = uint64(refundAfter);
        d.fundedAt = uint64(block.timestamp);
        held[token] += amount;
        uint256 total = amount + spamFee;
        uint256 before = IERC20(token).balanceOf(address(this));
        IERC20(token).safeTransferFrom(msg.sender, address(this), total);
        // Fee-on-transfer or rebasing tokens would break the books: refuse them.
        if (IERC20(token).balanceOf(address(this)) - before != total) revert UnsupportedToken(token);
        emit Funded(missionKey, msg.sender, token, amount, spamFee, uint64(refundAfter));
        _pay(missionKey, token, treasury, spamFee);
    }

    // ── Path 1: the funder-signed release ────────────────────────────────────────────────────

    /// @notice Pays `amounts[i]` to `recipients[i]` and `fee` to the treasury from `funder`'s
    ///         deposit, the rest back to the funder, with the funder's EIP-712 `Release` signature
    ///         (EOA or ERC-1271). At most once per mission key. No delay, no cap: the funder consented.
    function releaseSigned(
        bytes32 missionKey, address funder, address[] calldata recipients, uint256[] calldata amounts, uint256 fee,
        bytes calldata signature
    ) external onlyRole(RESOLVER_ROLE) whenNotPaused nonReentrant {
        (Deposit memory d, uint256 paid) = _check(missionKey, funder, recipients, amounts, fee);
        bytes32 digest = releaseDigest(missionKey, funder, recipients, amounts, fee);
        if (!SignatureChecker.isValidSignatureNow(funder, digest, signature)) revert BadFunderSignature();
        _release(missionKey, funder, d, recipients, amounts, paid, fee);
    }

    function releaseDigest(
        bytes32 missionKey, address funder, address[] calldata recipients, uint256[] calldata amounts, uint256 fee
    ) public view returns (bytes32) {
        return _hashTypedDataV4(
            keccak256(
                abi.encode(
                    RELEASE_TYPEHASH, missionKey, funder,
                    keccak256(abi.encodePacked(recipients)), keccak256(abi.encodePacked(amounts)), fee
                )
            )
        );
    }

    // ── Path 2: the delayed release ──────────────────────────────────────────────────────────

    /// @notice Announces a release (validated as releaseSigned, without the signature); anyone may
    ///         execute it from `executableAt`; the guardian may cancel it until then (and after).
    function proposeRelease(
        bytes32 missionKey, address funder, address[] calldata recipients, uint256[] calldata amounts, uint256 fee
    ) external onlyRole(RESOLVER_ROLE) whenNotPaused {
        _check(missionKey, funder, recipients, amounts, fee);
        Proposal storage p = _proposals[missionKey][funder];
        if (p.executableAt != 0) revert ReleasePending(missionKey, funder);
        bytes32 h = keccak256(abi.encode(recipients, amounts, fee));
        uint64 at = uint64(block.timestamp) + releaseDelay;
        p.hash = h;
        p.executableAt = at;
        emit ReleaseProposed(missionKey, funder, h, recipients, amounts, fee, at);
    }

    /// @notice Anyone may execute a proposal once its window has passed (liveness without the
    ///         resolver), within the token's cap for the current window: cap counts paid + fee.
    function executeRelease(
        bytes32 missionKey, address funder, address[] calldata recipients, uint256[] calldata amounts, uint256 fee
    ) external whenNotPaused nonReentrant {
        Proposal memory p = _proposals[missionKey][funder];
        if (p.executableAt == 0) revert NoProposal(missionKey, funder);
        if (p.hash != keccak256(abi.encode(recipients, amounts, fee))) revert ProposalMismatch();
        if (block.timestamp < p.executableAt) revert ReleaseNotReady(p.executableAt);
        (Deposit memory d, uint256 paid) = _check(missionKey, funder, recipients, amounts, fee);
        uint256 total = paid + fee;
        uint256 available = releaseCapAvailable(d.token);
        if (total > available) revert CapExceeded(d.token, total, available);
        uint256 window = block.timestamp / capPeriod;
        if (_capWindow[d.token] != window) {
            _capWindow[d.token] = window;
            _capUsed[d.token] = total;
        } else {
            _capUsed[d.token] += total;
        }
        _release(missionKey, funder, d, recipients, amounts, paid, fee);
    }

    /// @notice The guardian's veto. The slot stays funded: it waits for a new proposal or its
    ///         funder's exit; a cancel never pays anyone.
    function cancelRelease(bytes32 missionKey, address funder) external onlyRole(GUARDIAN_ROLE) {
        bytes32 h = _proposals[missionKey][funder].hash;
        if (_proposals[missionKey][funder].executableAt == 0) revert NoProposal(missionKey, funder);
        delete _proposals[missionKey][funder];
        emit ReleaseCancelled(missionKey, funder, h);
    }

    function proposalOf(bytes32 missionKey, address funder) external view returns (bytes32 hash, uint64 executableAt) {
        Proposal memory p = _proposals[missionKey][funder];
        return (p.hash, p.executableAt);
    }

    /// @notice What the delayed path has paid out of `token` (paid + fee) in the current window.
    function releasedInPeriod(address token) public view returns (uint256) {
        return _capWindow[token] == block.timestamp / capPeriod ? _capUsed[token] : 0;
    }

    function releaseCapAvailable(address token) public view returns (uint256) {
        uint256 used = releasedInPeriod(token);
        uint256 cap = releaseCap[token];
        return cap > used ? cap - used : 0;
    }

    function pause() external onlyRole(GUARDIAN_ROLE) {
        _pause();
    }

    function unpause() external onlyRole(GUARDIAN_ROLE) {
        _unpause();
    }

    // ── Refunds and exits ────────────────────────────────────────────────────────────────────

    /// @notice Returns `funder`'s whole deposit (a voided mission, or a deposit the server
    ///         rejected). Pays only the slot's own funder. The spam fee is not refunded.
    function refund(bytes32 missionKey, address funder) external onlyRole(RESOLVER_ROLE) nonReentrant {
        Deposit memory d = _take(missionKey, funder);
        emit Refunded(missionKey, funder, d.token, d.amount);
        _pay(missionKey, d.token, funder, d.amount);
    }

    /// @notice A stray deposit (a slot the release did not use) goes back to its funder once the
    ///         mission key has been released; before that only the resolver can return it.
    function reclaim(bytes32 missionKey) external nonReentrant {
        if (!released[missionKey]) revert NotReleased(missionKey);
        Deposit memory d = _take(missionKey, msg.sender);
        emit Reclaimed(missionKey, msg.sender, d.token, d.amount);
        _pay(missionKey, d.token, msg.sender, d.amount);
    }

    /// @notice The funder's own exit, without the operator: a slot unreleased at its refund-after
    ///         time, or — while a governance change is pending — a slot funded before it was proposed.
    function selfRefund(bytes32 missionKey) external nonReentrant {
        Deposit memory d = _take(missionKey, msg.sender);
        if (block.timestamp < d.refundAfter) {
            uint64 since = governancePendingSince();
            if (since == 0 || d.fundedAt > since) revert RefundNotYet(d.refundAfter);
        }
        emit SelfRefunded(missionKey, msg.sender, d.token, d.amount);
        _pay(missionKey, d.token, msg.sender, d.amount);
    }

    /// @notice Withdraws what a failed push credited to the caller, to the caller only.
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

    function fundedAtOf(bytes32 missionKey, address funder) external view returns (uint64) {
        return _deposits[missionKey][funder].fundedAt;
    }

    // ── Governance ───────────────────────────────────────────────────────────────────────────

    /// @notice The latest proposal time among pending governance changes (a resolver or guardian
    ///         proposal, a begun admin transfer, a scheduled admin-delay change), 0 when none. A
    ///         slot funded at or before it may selfRefund at once: each pending change lets every
    ///         slot funded before that change was proposed exit.
    function governancePendingSince() public view returns (uint64 since) {
        if (pendingResolver != address(0)) since = _resolverProposedAt;
        if (pendingGuardian != address(0) && _guardianProposedAt > since) since = _guardianProposedAt;
        (, uint48 adminSchedule) = pendingDefaultAdmin();
        if (adminSchedule != 0 && _adminTransferProposedAt > since) since = _adminTransferProposedAt;
        (, uint48 delaySchedule) = pendingDefaultAdminDelay();
        if (delaySchedule != 0 && _adminDelayProposedAt > since) since = _adminDelayProposedAt;
    }

    function setTreasury(address treasury_) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (treasury_ == address(0)) revert ZeroAddress();
        treasury = treasury_;
        emit TreasuryChanged(treasury_);
    }

    /// @notice Lowers the fee cap at once. Raising is not possible (docs/decisions.md): a higher
    ///         cap needs a new deployment, which funders see coming.
    function setFeeCapBps(uint16 feeCapBps_) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (feeCapBps_ > feeCapBps) revert CapNotLower();
        feeCapBps = feeCapBps_;
        emit FeeCapChanged(feeCapBps_);
    }

    /// @notice Lowers the delayed path's per-window cap of `token` (only downward; raising = a new deployment).
    function lowerReleaseCap(address token, uint256 cap) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (cap > releaseCap[token]) revert CapNotLower();
        releaseCap[token] = cap;
        emit ReleaseCapLowered(token, cap);
    }

    /// @notice Tokens sent here outside fund() (the balance above what slots and credits hold) go
    ///         to `to`. Never touches a slot or a credit.
    function sweep(address token, address to) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        if (to == address(0)) revert ZeroAddress();
        uint256 balance = IERC20(token).balanceOf(address(this));
        uint256 surplus = balance > held[token] ? balance - held[token] : 0;
        if (surplus == 0) revert NothingToWithdraw();
        emit Swept(token, to, surplus);
        IERC20(token).safeTransfer(to, surplus);
    }

    /// @notice A new resolver takes office only after the admin delay; meanwhile older slots may exit.
    function proposeResolver(address resolver) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (resolver == address(0)) revert ZeroAddress();
        pendingResolver = resolver;
        pendingResolverAt = uint48(block.timestamp) + defaultAdminDelay();
        _resolverProposedAt = uint64(block.timestamp);
        emit ResolverProposed(resolver, pendingResolverAt);
    }

    function activateResolver() external {
        address r = pendingResolver;
        if (r == address(0)) revert ZeroAddress();
        if (block.timestamp < pendingResolverAt) revert ResolverNotReady(pendingResolverAt);
        _clearResolverProposal(false);
        _grantRole(RESOLVER_ROLE, r);
        emit ResolverActivated(r);
    }

    function cancelResolverProposal() external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (pendingResolver == address(0)) revert ZeroAddress();
        _clearResolverProposal(true);
    }

    /// @notice A new guardian takes office only after the admin delay (like a resolver).
    function proposeGuardian(address guardian) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (guardian == address(0)) revert ZeroAddress();
        pendingGuardian = guardian;
        pendingGuardianAt = uint48(block.timestamp) + defaultAdminDelay();
        _guardianProposedAt = uint64(block.timestamp);
        emit GuardianProposed(guardian, pendingGuardianAt);
    }

    function activateGuardian() external {
        address g = pendingGuardian;
        if (g == address(0)) revert ZeroAddress();
        if (block.timestamp < pendingGuardianAt) revert GuardianNotReady(pendingGuardianAt);
        _clearGuardianProposal(false);
        // One guardian at a time: the new one replaces the old (a no-op if the old one renounced).
        _revokeRole(GUARDIAN_ROLE, activeGuardian);
        activeGuardian = g;
        _grantRole(GUARDIAN_ROLE, g);
        emit GuardianActivated(g);
    }

    function cancelGuardianProposal() external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (pendingGuardian == address(0)) revert ZeroAddress();
        _clearGuardianProposal(true);
    }

    /// @dev RESOLVER_ROLE and GUARDIAN_ROLE are granted only through their propose + activate.
    ///      Revoking the resolver stays immediate (removing power needs no delay); the guardian is
    ///      the check on the resolver, so the admin replaces it only through a proposal (revokeRole
    ///      below) — a compromised admin cannot remove the veto without opening the funders' exits.
    ///      The guardian itself may renounce.
    function grantRole(bytes32 role, address account) public override {
        if (role == RESOLVER_ROLE) revert UseProposeResolver();
        if (role == GUARDIAN_ROLE) revert UseProposeGuardian();
        super.grantRole(role, account);
    }

    function revokeRole(bytes32 role, address account) public override {
        if (role == GUARDIAN_ROLE) revert UseProposeGuardian();
        super.revokeRole(role, account);
    }

    // ── Internals ────────────────────────────────────────────────────────────────────────────

    /// @dev The checks every release makes; returns the slot and the recipients' total.
    function _check(
        bytes32 missionKey, address funder, address[] calldata recipients, uint256[] calldata amounts, uint256 fee
    ) private view returns (Deposit memory d, uint256 paid) {
        if (released[missionKey]) revert AlreadyReleased(missionKey);
        d = _deposits[missionKey][funder];
        if (d.amount == 0) revert NotFunded(missionKey, funder);
        uint256 n = recipients.length;
        if (n == 0 || n != amounts.length || n > MAX_RECIPIENTS) revert BadRecipients();
        for (uint256 i; i < n; ++i) {
            if (recipients[i] == address(0)) revert ZeroAddress();
            paid += amounts[i];
        }
        uint256 total = paid + fee;
        if (total > d.amount) revert ExceedsDeposit(total, d.amount);
        uint256 cap = (total * feeCapBps) / 10_000;
        if (fee > cap) revert FeeTooHigh(fee, cap);
    }

    function _release(
        bytes32 missionKey, address funder, Deposit memory d, address[] calldata recipients,
        uint256[] calldata amounts, uint256 paid, uint256 fee
    ) private {
        released[missionKey] = true;
        _take(missionKey, funder);
        uint256 returned = d.amount - paid - fee;
        emit Released(missionKey, funder, d.token, paid, fee, returned);
        for (uint256 i; i < recipients.length; ++i) _pay(missionKey, d.token, recipients[i], amounts[i]);
        _pay(missionKey, d.token, treasury, fee);
        _pay(missionKey, d.token, funder, returned);
    }

    /// @dev Empties a slot (and any release proposal on it: a later deposit in the same slot
    ///      must never be paid by an old proposal); reverts when the slot is empty.
    function _take(bytes32 missionKey, address funder) private returns (Deposit memory d) {
        d = _deposits[missionKey][funder];
        if (d.amount == 0) revert NotFunded(missionKey, funder);
        delete _deposits[missionKey][funder];
        delete _proposals[missionKey][funder];
        held[d.token] -= d.amount;
    }

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

    function _clearResolverProposal(bool cancelled) private {
        address r = pendingResolver;
        delete pendingResolver;
        delete pendingResolverAt;
        delete _resolverProposedAt;
        if (cancelled) emit ResolverProposalCancelled(r);
    }

    function _clearGuardianProposal(bool cancelled) private {
        address g = pendingGuardian;
        delete pendingGuardian;
        delete pendingGuardianAt;
        delete _guardianProposedAt;
        if (cancelled) emit GuardianProposalCancelled(g);
    }

    // Governance-change times for governancePendingSince (OZ AccessControlDefaultAdminRules hooks).

    function _beginDefaultAdminTransfer(address newAdmin) internal override {
        super._beginDefaultAdminTransfer(newAdmin);
        _adminTransferProposedAt = uint64(block.timestamp);
    }

    function _cancelDefaultAdminTransfer() internal override {
        super._cancelDefaultAdminTransfer();
        delete _adminTransferProposedAt;
    }

    /// @dev A new admin takes over with no proposal of the old one pending.
    function _acceptDefaultAdminTransfer() internal override {
        super._acceptDefaultAdminTransfer();
        delete _adminTransferProposedAt;
        if (pendingResolver != address(0)) _clearResolverProposal(true);
        if (pendingGuardian != address(0)) _clearGuardianProposal(true);
    }

    function _changeDefaultAdminDelay(uint48 newDelay) internal override {
        super._changeDefaultAdminDelay(newDelay);
        _adminDelayProposedAt = uint64(block.timestamp);
    }

    function _rollbackDefaultAdminDelay() internal override {
        super._rollbackDefaultAdminDelay();
        delete _adminDelayProposedAt;
    }
}
