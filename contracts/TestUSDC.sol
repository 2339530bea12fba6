// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";

/// @title TestUSDC — test fixture standing in for USDC on a local chain.
/// @notice Test only: anyone can mint and blacklist. Like USDC it has 6 decimals, EIP-2612 permit,
///         and a blacklist under which transfers to or from a listed address revert — so tests can
///         show that one recipient who cannot receive does not block a release.
contract TestUSDC is ERC20, ERC20Permit {
    mapping(address => bool) public blacklisted;

    error Blacklisted(address account);

    constructor() ERC20("Test USD Coin", "USDC") ERC20Permit("Test USD Coin") {}

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function setBlacklisted(address account, bool value) external {
        blacklisted[account] = value;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (blacklisted[from]) revert Blacklisted(from);
        if (blacklisted[to]) revert Blacklisted(to);
        super._update(from, to, value);
    }
}
