// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title ReentrantToken — a malicious ERC-20 for reentrancy tests.
/// @notice Test only. When armed, every transfer / transferFrom first calls `target` with `data`
///         (e.g. MissionEscrow.release / refund / withdraw / reclaim) and records whether that
///         reentrant call succeeded, then performs the transfer normally.
contract ReentrantToken is ERC20 {
    address public target;
    bytes public data;
    bool public armed;
    bool public lastReentrySucceeded;
    bytes public lastReentryReturn;

    constructor() ERC20("Reentrant", "REENT") {}

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function arm(address target_, bytes calldata data_) external {
        target = target_;
        data = data_;
        armed = true;
    }

    function disarm() external {
        armed = false;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (armed) {
            armed = false; // one attempt per arming, so the test controls exactly when it fires
            (bool ok, bytes memory ret) = target.call(data);
            lastReentrySucceeded = ok;
            lastReentryReturn = ret;
        }
        super._update(from, to, value);
    }
}
