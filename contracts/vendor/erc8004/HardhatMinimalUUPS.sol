// SPDX-License-Identifier: MIT
// Vendored from https://github.com/erc-8004/erc-8004-contracts/blob/b9e466c250744a7e06b13dff9d3c2844ed64f825/contracts/HardhatMinimalUUPS.sol
// (commit b9e466c250744a7e06b13dff9d3c2844ed64f825; MIT licence as declared above). One change: the call to
// __UUPSUpgradeable_init() is dropped (an empty initializer @openzeppelin/contracts-upgradeable 5.7 no
// longer has). See docs/erc-8004.md.
pragma solidity ^0.8.20;

import "@openzeppelin/contracts-upgradeable/proxy/utils/UUPSUpgradeable.sol";
import "@openzeppelin/contracts-upgradeable/access/OwnableUpgradeable.sol";

/**
 * @title HardhatMinimalUUPS
 * @dev Test version of MinimalUUPS that uses msg.sender as owner.
 * Used for hardhat tests to follow the proxy -> MinimalUUPS -> upgrade pattern.
 */
contract HardhatMinimalUUPS is OwnableUpgradeable, UUPSUpgradeable {
    /// @dev Identity registry address stored at slot 0 (matches real implementations)
    address private _identityRegistry;

    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor() {
        _disableInitializers();
    }

    function initialize(address identityRegistry_) public initializer {
        __Ownable_init(msg.sender);
        _identityRegistry = identityRegistry_;
    }

    function _authorizeUpgrade(address newImplementation) internal override onlyOwner {}

    function getVersion() external pure returns (string memory) {
        return "0.0.1";
    }
}
