// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title MockOracle — a test-programmable oracle for AIP-1 §4.4 (`verification.type: "oracle"`).
/// @notice Test fixture only: anyone can program it. It exposes the two method shapes the server
///         reads (src/lib/evm.ts `parseOracleMethod`). A submission is identified by its sha256
///         content hash as bytes32; a mission by `missionKey = keccak256(bytes(mission_id))`.
contract MockOracle {
    mapping(bytes32 missionKey => mapping(bytes32 contentHash => bool)) private _valid;
    mapping(bytes32 missionKey => bytes32 contentHash) private _winner;

    event ValidSet(bytes32 indexed missionKey, bytes32 indexed contentHash, bool valid);
    event WinnerSet(bytes32 indexed missionKey, bytes32 contentHash);

    /// @notice Per-submission shape: is this submission valid for this mission?
    function isValid(bytes32 missionKey, bytes32 contentHash) external view returns (bool) {
        return _valid[missionKey][contentHash];
    }

    /// @notice Per-mission shape: the winning submission's content hash; zero = not decided yet.
    function winner(bytes32 missionKey) external view returns (bytes32 contentHash) {
        return _winner[missionKey];
    }

    function setValid(bytes32 missionKey, bytes32 contentHash, bool valid) external {
        _valid[missionKey][contentHash] = valid;
        emit ValidSet(missionKey, contentHash, valid);
    }

    function setWinner(bytes32 missionKey, bytes32 contentHash) external {
        _winner[missionKey] = contentHash;
        emit WinnerSet(missionKey, contentHash);
    }
}
