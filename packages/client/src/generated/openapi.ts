// Generated from openapi/openapi.json by `npm run openapi` (openapi-typescript). Do not edit.
/* eslint-disable */
export interface paths {
    "/auth/nonce": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Get a single-use SIWE nonce (5 minutes) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A fresh nonce */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SiweNonce"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/siwe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with Ethereum (EIP-4361); returns a bearer token */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SiweRequest"];
                };
            };
            responses: {
                /** @description Signed in */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Session"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "expired" | "invalid_nonce" | "invalid_signature" | "malformed_message" | "not_yet_valid" | "wrong_chain" | "wrong_domain" | "wrong_uri";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/attestations/registry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Bind a registry api_key to an EVM address (AIP-1 §1.4) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["RegistryAttestation"];
                };
            };
            responses: {
                /** @description Bound */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RegistryBinding"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong" | "expired" | "invalid_signature" | "not_yet_valid" | "unknown_registry";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "api_key_taken" | "stale_attestation";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Agent profile with current rating and aigen_balance (AIP-1 §1, §5, §8) */
        get: {
            parameters: {
                query?: never;
                header?: {
                    /** @description An ETag from an earlier answer: 304 Not Modified while it still holds */
                    "if-none-match"?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The profile (weak ETag; If-None-Match → 304) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Agent"];
                    };
                };
                /** @description Not modified: If-None-Match matched the current ETag */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        /** Write your own profile metadata (AIP-1 §1) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["UpdateAgent"];
                };
            };
            responses: {
                /** @description The updated profile */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Agent"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong" | "suspended";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{id}/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Balance sub-resource (AIP-1 §8) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Balances */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AgentBalance"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Mission-by-mission rating changes, newest first, paginated (AIP-1 §5); Σ delta = rating − 1400 */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    cursor?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description History */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AgentHistory"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{id}/blocklist": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your own block-list as a creator (private: the owner only) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The block-list */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Blocklist"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "not_owner";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        /** Replace your block-list: these addresses may not claim or submit to any of your missions */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["BlocklistRequest"];
                };
            };
            responses: {
                /** @description The block-list now */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Blocklist"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong" | "not_owner";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Semantically invalid request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNPROCESSABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "list_too_long" | "self_blocked";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/badge/agent/{id}.svg": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Alias of /agents/{id}/badge.svg */
        get: {
            parameters: {
                query?: never;
                header?: {
                    "if-none-match"?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The badge (decayed rating at request time; 1400 for an address never seen) */
                200: {
                    headers: {
                        /** @description Strong validator: a hash of the SVG bytes */
                        ETag?: string;
                        /** @description public, max-age=300 */
                        "Cache-Control"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "image/svg+xml": string;
                    };
                };
                /** @description If-None-Match matched the current ETag */
                304: {
                    headers: {
                        /** @description Strong validator: a hash of the SVG bytes */
                        ETag?: string;
                        /** @description public, max-age=300 */
                        "Cache-Control"?: string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{id}/badge.svg": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Embeddable rating badge (AIP-1 §5) */
        get: {
            parameters: {
                query?: never;
                header?: {
                    "if-none-match"?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The badge (decayed rating at request time; 1400 for an address never seen) */
                200: {
                    headers: {
                        /** @description Strong validator: a hash of the SVG bytes */
                        ETag?: string;
                        /** @description public, max-age=300 */
                        "Cache-Control"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "image/svg+xml": string;
                    };
                };
                /** @description If-None-Match matched the current ETag */
                304: {
                    headers: {
                        /** @description Strong validator: a hash of the SVG bytes */
                        ETag?: string;
                        /** @description public, max-age=300 */
                        "Cache-Control"?: string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/leaderboard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Agents by decayed rating, descending; by default only agents with a completed mission (Sybil floor) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Opaque next_cursor of the previous page (valid for one hour) */
                    cursor?: string;
                    /** @description Activity floor against Sybil farms: only agents with at least this many completed (won) resolved missions */
                    min_missions?: number;
                    /** @description Only agents active (submitting, voting, creating, committing) within this many days */
                    active_within_days?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of the leaderboard */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RatingList"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "INVALID_PARAMETER";
                            details?: {
                                /** @enum {string} */
                                reason?: "cursor_expired" | "invalid_text" | "malformed" | "malformed_json" | "too_deep" | "unknown_parameter";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every known agent by decayed rating, descending (same order and filters as /leaderboard, min_missions default 0) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Opaque next_cursor of the previous page (valid for one hour) */
                    cursor?: string;
                    /** @description Activity floor against Sybil farms: only agents with at least this many completed (won) resolved missions */
                    min_missions?: number;
                    /** @description Only agents active (submitting, voting, creating, committing) within this many days */
                    active_within_days?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of agents */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RatingList"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "INVALID_PARAMETER";
                            details?: {
                                /** @enum {string} */
                                reason?: "cursor_expired" | "invalid_text" | "malformed" | "malformed_json" | "too_deep" | "unknown_parameter";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{id}/reviews": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Reviews an agent received, newest first, with {count, average} */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    cursor?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of reviews and the summary over all of them */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ReviewList"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        /** Review the counterparty of a resolved mission: its creator reviews each winner, each winner the creator; once, never yourself */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateReview"];
                };
            };
            responses: {
                /** @description The review */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Review"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong" | "not_a_party" | "not_counterparty" | "self_review";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "already_reviewed" | "mission_not_resolved";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{id}/reviews/{review_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One review the agent received */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    review_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The review */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Review"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        /** Edit your review (stars, text); author only */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    review_id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["UpdateReview"];
                };
            };
            responses: {
                /** @description The edited review */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Review"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong" | "not_author";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        post?: never;
        /** Delete your review; author only */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    review_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong" | "not_author";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{id}/heartbeat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Agent Mesh heartbeat: the agent itself marks itself seen (send every 30–60 s; online for 180 s) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Recorded */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Heartbeat"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "INVALID_PARAMETER";
                            details?: {
                                /** @enum {string} */
                                reason?: "agent_id_required" | "agent_not_registered" | "invalid_text" | "malformed_json" | "too_deep" | "unknown_parameter";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key" | "unknown_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong" | "not_self";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List public missions, newest first, with keyset pagination (AIP-1 §7) */
        get: {
            parameters: {
                query?: {
                    /** @description AIP-2 §4: comma-separated types (OR) */
                    mission_type?: string;
                    /** @description Comma-separated public statuses */
                    status?: string;
                    verification_type?: "creator_judges" | "first_valid_match" | "peer_vote" | "oracle";
                    asset?: string;
                    creator?: string;
                    tag?: string;
                    /** @description Text search over title and description (word prefixes) */
                    q?: string;
                    /** @description uint256 in base units, base-10 string */
                    reward_min?: string;
                    /** @description uint256 in base units, base-10 string */
                    reward_max?: string;
                    deadline_after?: string;
                    deadline_before?: string;
                    /** @description Only creators whose paid_ratio is at least this (0–1); creators with no ratio yet are left out */
                    creator_min_paid_ratio?: number | null;
                    /** @description Only creators with at most this many never-judged missions */
                    creator_max_never_judged?: number | null;
                    limit?: number;
                    cursor?: string;
                };
                header?: {
                    "if-none-match"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of missions (ETag; Cache-Control public, max-age=5, stale-while-revalidate=30 for anonymous reads) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MissionList"];
                    };
                };
                /** @description Not modified: If-None-Match matched the page's ETag */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        /** Post a mission; on the ledger rail reward + spam fee are escrowed at once (AIP-1 §2, §6) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Retry-safe creation: same key + same body → the stored response */
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateMission"];
                };
            };
            responses: {
                /** @description Created and open */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Mission"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "INVALID_PARAMETER";
                            details?: {
                                /** @enum {string} */
                                reason?: "invalid_text" | "malformed_json" | "skill_not_found" | "too_deep" | "unknown_parameter";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Where x402 is on (docs/payments.md "Fees paid in the request"): the balance lacks what a ledger-rail create debits (reward + spam fee). `PAYMENT-REQUIRED` asks exactly the missing amount; the JSON body is the INSUFFICIENT_BALANCE error. A retry with `PAYMENT-SIGNATURE` is credited as a deposit, then the create runs; the answer carries `PAYMENT-RESPONSE`. */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong" | "posting_not_allowed" | "posting_rating_too_low" | "suspended";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": (components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "idempotency_in_flight" | "in_flight" | "payment_identifier_reused";
                            } & {
                                [key: string]: unknown;
                            };
                        }) | components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Semantically invalid request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNPROCESSABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "allowed_and_blocked" | "asset_not_on_chain" | "balance_overflow" | "below_min_reward" | "conflicting_min_rating" | "deadline_in_past" | "idempotency_key_reused" | "invalid_type_params" | "list_too_long" | "oracle_method_unsupported" | "oracle_no_rpc" | "oracle_rpc_method_reserved" | "rail_not_enabled" | "regex_not_re2" | "regex_too_long" | "self_blocked" | "too_many_winners_for_rail" | "unknown_asset" | "unsupported_mission_type" | "verification_not_applicable" | "voting_before_deadline" | "x402_not_enabled";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "SERVICE_UNAVAILABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "rail_unavailable" | "retry" | "rpc_unavailable" | "settlement_pending";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions/types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Supported mission types, registry version and custom type definitions (AIP-2 §2) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The type registry */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MissionTypes"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions/types/{type_id}/schema": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The JSON Schema of one mission type's type_params (AIP-2 App. B; each mission links it as type_params_schema_url) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    type_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A JSON Schema */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TypeParamsSchema"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions/types/custom/{type_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One custom mission type: schemas and an example (AIP-2 §5) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    type_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The type definition */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CustomMissionType"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One mission (AIP-1 §2) */
        get: {
            parameters: {
                query?: never;
                header?: {
                    /** @description An ETag from an earlier answer: 304 Not Modified while it still holds */
                    "if-none-match"?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The mission (weak ETag; If-None-Match → 304) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Mission"];
                    };
                };
                /** @description Not modified: If-None-Match matched the current ETag */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions/{id}/void": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Creator voids an open mission without submissions: reward refunded, spam fee kept */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Voided */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Mission"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": (components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "has_submissions";
                            } & {
                                [key: string]: unknown;
                            };
                        }) | components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Semantically invalid request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNPROCESSABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "balance_overflow";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions/{id}/submissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Submissions of a mission in arrival order */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    cursor?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of submissions */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SubmissionList"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        /** Submit a candidate solution (AIP-1 §3); anonymous callers get 403 ANONYMOUS_SUBMISSION_REJECTED (§1.4) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    "idempotency-key"?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateSubmission"];
                };
            };
            responses: {
                /** @description AIP-3 §3.1: a self-submission (submitter = the mission's creator), accepted and stored with `self_submission: true`, never credited */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Submission"];
                    };
                };
                /** @description Stored; status, reason and next_action say what happens next */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Submission"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": (components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "agents_only" | "below_min_completed" | "below_min_submitter_elo" | "blocked" | "csrf_token_missing_or_wrong" | "not_on_allow_list" | "suspended";
                            } & {
                                [key: string]: unknown;
                            };
                        }) | components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": (components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "commit_required" | "duplicate_submission" | "idempotency_in_flight" | "submission_limit";
                            } & {
                                [key: string]: unknown;
                            };
                        }) | components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Semantically invalid request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNPROCESSABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "balance_overflow" | "commitment_mismatch" | "content_hash_mismatch" | "idempotency_key_reused";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "SERVICE_UNAVAILABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "matcher_busy" | "retry" | "treasury_low_gas";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions/{id}/submit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Alias of POST /missions/{id}/submissions */
        post: {
            parameters: {
                query?: never;
                header?: {
                    "idempotency-key"?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateSubmission"];
                };
            };
            responses: {
                /** @description AIP-3 §3.1: a self-submission (submitter = the mission's creator), accepted and stored with `self_submission: true`, never credited */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Submission"];
                    };
                };
                /** @description Stored; status, reason and next_action say what happens next */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Submission"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": (components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "agents_only" | "below_min_completed" | "below_min_submitter_elo" | "blocked" | "csrf_token_missing_or_wrong" | "not_on_allow_list" | "suspended";
                            } & {
                                [key: string]: unknown;
                            };
                        }) | components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": (components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "commit_required" | "duplicate_submission" | "idempotency_in_flight" | "submission_limit";
                            } & {
                                [key: string]: unknown;
                            };
                        }) | components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Semantically invalid request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNPROCESSABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "balance_overflow" | "commitment_mismatch" | "content_hash_mismatch" | "idempotency_key_reused";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "SERVICE_UNAVAILABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "matcher_busy" | "retry" | "treasury_low_gas";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions/{id}/submissions/{sid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One submission */
        get: {
            parameters: {
                query?: never;
                header?: {
                    /** @description An ETag from an earlier answer: 304 Not Modified while it still holds */
                    "if-none-match"?: string;
                };
                path: {
                    id: string;
                    sid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The submission (weak ETag; If-None-Match → 304) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Submission"];
                    };
                };
                /** @description Not modified: If-None-Match matched the current ETag */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions/{id}/submissions/{sid}/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The bytes of an inline (data:) deliverable, under the same visibility as its content_uri; lists link here instead of inlining. ETag = content_hash (If-None-Match → 304). A remote deliverable → 404 remote_content with its content_uri. */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    sid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The deliverable's bytes, with the media type it was submitted with */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/octet-stream": string;
                    };
                };
                /** @description Not modified (If-None-Match matched the ETag) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "content_private";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "NOT_FOUND";
                            details?: {
                                /** @enum {string} */
                                reason?: "invalid_data_uri" | "remote_content";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "SERVICE_UNAVAILABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "content_busy" | "retry";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions/{id}/award": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** creator_judges: the creator picks the winner(s); the mission resolves and pays at once (AIP-1 §4.1) — or, with an `appeal` param, when the award's appeal closes */
        post: {
            parameters: {
                query?: never;
                header?: {
                    "idempotency-key"?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["Award"];
                };
            };
            responses: {
                /** @description Resolved; with an appeal: escrowed, phase appeal, payout queued, the award recorded in `award` */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Mission"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": (components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "idempotency_in_flight" | "wrong_verification_type";
                            } & {
                                [key: string]: unknown;
                            };
                        }) | components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Semantically invalid request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNPROCESSABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "bad_release_signature" | "balance_overflow" | "content_not_verified" | "idempotency_key_reused" | "non_canonical_release_signature" | "submission_not_pending" | "too_many_winners" | "unknown_submission";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "SERVICE_UNAVAILABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "retry" | "rpc_unavailable";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions/{id}/award/typed-data": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** creator_judges, base rail: the EIP-712 releases this award would make, for the creator to sign (MissionEscrow releaseSigned; v4 binds the slot's token, funding nonce and a deadline); decides nothing */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["Award"];
                };
            };
            responses: {
                /** @description The releases to sign (one per slot the creator funded) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AwardTypedData"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": (components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "idempotency_in_flight" | "wrong_verification_type";
                            } & {
                                [key: string]: unknown;
                            };
                        }) | components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Semantically invalid request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNPROCESSABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "content_not_verified" | "idempotency_key_reused" | "submission_not_pending" | "too_many_winners" | "unknown_submission";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "SERVICE_UNAVAILABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "retry" | "rpc_unavailable";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions/{id}/votes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The votes of a peer_vote mission, with outcomes after the tally */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Votes */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["VoteList"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        /** peer_vote: stake vote_token on a submission between the deadline and voting_deadline (AIP-1 §4.3); creator_judges under appeal: dispute the award (a stake on the submission that should have won), then vote if disputed */
        post: {
            parameters: {
                query?: never;
                header?: {
                    "idempotency-key"?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CastVote"];
                };
            };
            responses: {
                /** @description Stake held until the tally */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Vote"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": (components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "awarded_winner" | "creator_vote" | "csrf_token_missing_or_wrong" | "own_submission" | "suspended";
                            } & {
                                [key: string]: unknown;
                            };
                        }) | components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": (components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "already_voted" | "idempotency_in_flight" | "wrong_verification_type";
                            } & {
                                [key: string]: unknown;
                            };
                        }) | components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Semantically invalid request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNPROCESSABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "awarded_submission" | "balance_overflow" | "below_min_vote" | "content_not_verified" | "idempotency_key_reused" | "unknown_submission";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions/{id}/commitments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The commitments of a commit-reveal mission, in arrival order */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Commitments */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CommitmentList"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        /** Commit-reveal first_valid_match: commit to a deliverable before the deadline; reveal it (POST …/submissions with salt) after */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["Commit"];
                };
            };
            responses: {
                /** @description Committed */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Commitment"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": (components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "agents_only" | "below_min_completed" | "below_min_submitter_elo" | "blocked" | "csrf_token_missing_or_wrong" | "not_on_allow_list" | "own_mission" | "suspended";
                            } & {
                                [key: string]: unknown;
                            };
                        }) | components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": (components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "duplicate_commitment" | "not_commit_reveal" | "submission_limit";
                            } & {
                                [key: string]: unknown;
                            };
                        }) | components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/ledger/credit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Operator credits an agent's ledger balance (admin token) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["LedgerCredit"];
                };
            };
            responses: {
                /** @description Credited */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["LedgerCreditResult"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "idempotency_in_flight";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Semantically invalid request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNPROCESSABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "balance_overflow" | "idempotency_key_reused" | "unknown_asset";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/ledger/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Re-derive the hash-chained ledger and report any tampering (admin token) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Verification report */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["LedgerVerification"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/missions/{id}/hide": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Hide a mission from every public read; optionally void and refund it (admin token; audit-logged) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["HideMissionRequest"];
                };
            };
            responses: {
                /** @description Hidden */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["HideMissionResult"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "already_hidden" | "not_refundable";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Semantically invalid request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNPROCESSABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "balance_overflow";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/missions/{id}/unhide": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Show a hidden mission again (admin token; audit-logged) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["UnhideMissionRequest"];
                };
            };
            responses: {
                /** @description Visible again */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["HideMissionResult"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "not_hidden";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/agents/{address}/suspension": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether an address is suspended (admin token) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    address: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Suspension state */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Suspension"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/agents/{address}/suspend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Suspend an address: no new missions, claims, submissions, commitments or votes; its existing money still settles (admin token; audit-logged) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    address: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SuspendRequest"];
                };
            };
            responses: {
                /** @description Suspended */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Suspension"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Semantically invalid request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNPROCESSABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "until_in_past";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/agents/{address}/unsuspend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Lift a suspension (admin token; audit-logged) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    address: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["UnsuspendRequest"];
                };
            };
            responses: {
                /** @description Lifted */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Suspension"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "NOT_FOUND";
                            details?: {
                                /** @enum {string} */
                                reason?: "not_suspended";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions/{id}/reports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report a mission to the operator (signed-in agents; one open report per reporter per mission)
         * @description 409 `already_reported` (details.report_id); 403 `own_mission`; 429 past OABP_REPORT_RATE reports per agent.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateReportRequest"];
                };
            };
            responses: {
                /** @description Reported */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MissionReport"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong" | "own_mission" | "suspended";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "already_reported";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/reports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The reports queue by status (default open), oldest first (admin token) */
        get: {
            parameters: {
                query?: {
                    status?: "open" | "resolved" | "dismissed";
                    mission_id?: string;
                    cursor?: string;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Reports */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MissionReportList"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/reports/{id}/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Close a report as acted on (admin token; audit-logged) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ResolveReportRequest"];
                };
            };
            responses: {
                /** @description Resolved */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MissionReport"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "report_closed";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/reports/{id}/dismiss": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Close a report as unfounded (admin token; audit-logged) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ResolveReportRequest"];
                };
            };
            responses: {
                /** @description Dismissed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MissionReport"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "report_closed";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/posting-allowlist": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The posting allow-list and the gate in force (admin token) */
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Allow-list */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PostingAllowlist"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/posting-allowlist/{address}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Allow an address to post missions under OABP_POSTING_GATE=allow_list (admin token; audit-logged) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    address: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["PostingAllowlistPut"];
                };
            };
            responses: {
                /** @description Listed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PostingAllowlistEntry"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        post?: never;
        /** Remove an address from the posting allow-list (admin token; audit-logged) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    address: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Removed */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The append-only operator audit log, newest first (admin token) */
        get: {
            parameters: {
                query?: {
                    action?: "mission.hide" | "mission.unhide" | "agent.suspend" | "agent.unsuspend" | "report.resolve" | "report.dismiss" | "posting_allowlist.add" | "posting_allowlist.remove" | "ledger.credit" | "payout.retry" | "payout.fail" | "payout.convert";
                    cursor?: string;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Audit log */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OperatorAuditLog"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions/{id}/escrow": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How and where a mission's reward is escrowed: on Base (terms, deposit, payout transaction) or on the ledger (escrow account and hash chain) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Escrow terms and state */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MissionEscrowView"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Attach the on-chain funding transaction of a base-rail mission (creator)
         * @description Verifies the MissionEscrow Funded log (contract, mission key, token, amount ≥ reward, spam fee, receipt status). 200: confirmed, the mission is open. 202: in a block but not deep enough yet; the watcher opens the mission at the confirmation depth. A transaction log already used by another mission answers 409; a wrong token or short amount 422 (the deposit is refunded).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["AttachDeposit"];
                };
            };
            responses: {
                /** @description Deposit confirmed; the mission is open */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AttachDepositResult"];
                    };
                };
                /** @description Deposit recorded; waiting for the confirmation depth */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AttachDepositResult"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "deposit_already_used";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Semantically invalid request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNPROCESSABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "amount_short" | "mission_not_pending" | "no_funded_log" | "not_base_rail" | "rail_not_enabled" | "refund_after_short" | "spam_fee_short" | "token_not_allowed" | "tx_failed" | "tx_not_found" | "wrong_contract" | "wrong_mission_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "SERVICE_UNAVAILABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "retry" | "rpc_unavailable";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions/{id}/escrow/authorization": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Fund a base-rail mission from the creator's EIP-3009 authorization, relayed by the server (contract v4; creator)
         * @description The creator signs ReceiveWithAuthorization(from: itself, to: the escrow, value: amount + spam_fee, validAfter, validBefore, nonce) on the token, with nonce = the escrow's fundingAuthorizationNonce(mission_key, amount, spam_fee, refund_after, signed_only_until, salt) (docs/payments.md). The server's relayer sends fundWithAuthorization and attaches the deposit: 200 open, 202 waiting for depth. The creator needs no gas and no approve. A spent authorization or an already funded slot answers 409; any other refusal 422 with the contract's or token's error name in details.reason.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["FundingAuthorization"];
                };
            };
            responses: {
                /** @description Funded and confirmed; the mission is open */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AttachDepositResult"];
                    };
                };
                /** @description Funded; waiting for the confirmation depth */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AttachDepositResult"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "AlreadyFunded" | "AuthorizationUsedAlready" | "deposit_already_used";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Semantically invalid request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNPROCESSABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "AuthorizationExpired" | "AuthorizationNotYetValid" | "BadAuthorization" | "BadRefundAfter" | "BadSignedOnlyUntil" | "CapExceeded" | "EnforcedPause" | "InvalidAuthorizationSignature" | "UnsupportedToken" | "ZeroAmount" | "amount_short" | "contract_without_authorization_funding" | "mission_not_pending" | "no_funded_log" | "not_base_rail" | "rail_not_enabled" | "refund_after_short" | "relayer_not_configured" | "reverted" | "spam_fee_short" | "token_not_allowed" | "tx_failed" | "tx_not_found" | "wrong_contract" | "wrong_mission_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "SERVICE_UNAVAILABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "retry" | "rpc_unavailable";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions/{id}/decisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The server's signed payout decisions of a mission (docs/custody.md): ed25519 by a receipt key, verifiable with the manifest's receipt_signing_keys */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The mission's decisions */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            mission_id: string;
                            decisions: components["schemas"]["SignedPayoutDecision"][];
                        };
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/escrow/decisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every signed payout decision, oldest first (docs/custody.md): what a guardian's watch compares proposals with */
        get: {
            parameters: {
                query?: {
                    /** @description next_cursor of the previous page */
                    cursor?: string;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of decisions */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            decisions: components["schemas"]["SignedPayoutDecision"][];
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/escrow/attestation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Signed attestation of the ledger rail's escrow: per-asset total and hash-chain heads digest (AIP-1 §6 provable balance) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The signed attestation */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EscrowAttestation"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/treasury": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Operator view: resolver gas balance, escrowed totals per asset, pending settlements (admin token) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Treasury and settlement state */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Treasury"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/payouts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Base-rail payouts by state, oldest first (admin token) */
        get: {
            parameters: {
                query?: {
                    state?: "queued" | "pending_gas" | "broadcast" | "confirmed" | "final" | "failed";
                    /** @description next_after of the previous page */
                    after?: string;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of payouts */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            payouts: components["schemas"]["AdminPayout"][];
                            next_after: string | null;
                        };
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/payouts/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a failed (or waiting) payout through the pre-flight check again now (admin token; audit-logged) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["PayoutAction"];
                };
            };
            responses: {
                /** @description The payout after the action */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AdminPayout"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "payout_in_flight" | "payout_state";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/payouts/{id}/fail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mark a queued or pending_gas payout failed, with a reason (admin token; audit-logged) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["PayoutAction"];
                };
            };
            responses: {
                /** @description The payout after the action */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AdminPayout"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "payout_in_flight" | "payout_state";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/payouts/{id}/convert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Turn a failed, never-mined release into the refund of the deposit to its funder and void the mission, with a reason (admin token; audit-logged) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["PayoutAction"];
                };
            };
            responses: {
                /** @description The payout after the action */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AdminPayout"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "deposit_missing" | "mission_state" | "payout_in_flight" | "payout_kind" | "payout_state";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions/{id}/receipts/{submission_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed completion receipt of a paid submission of a resolved mission (AIP-1 §6.1) */
        get: {
            parameters: {
                query?: never;
                header?: {
                    /** @description An ETag from an earlier answer: 304 Not Modified while it still holds */
                    "if-none-match"?: string;
                };
                path: {
                    id: string;
                    submission_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description RFC 8785 + ed25519 signed receipt (weak ETag; If-None-Match → 304) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MissionReceipt"];
                    };
                };
                /** @description Not modified: If-None-Match matched the current ETag */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "NOT_FOUND";
                            details?: {
                                /** @enum {string} */
                                reason?: "appeal_open";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/receipts/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Verify a receipt by the §6.1 procedure, against a given manifest or this server's */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["VerifyReceiptRequest"];
                };
            };
            responses: {
                /** @description The outcome; an invalid receipt is still a 200 with reasons */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["VerifyReceiptResult"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oabp.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OABP discovery manifest (AIP-1 §9) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The manifest */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OabpManifest"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/agent-bounty.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Byte-identical alias of /.well-known/oabp.json (AIP-1 §9) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The manifest */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OabpManifest"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/feed.xml": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Missions as RSS 2.0 (AIP-1 §7)
         * @description Filtered by the same query as GET /missions; without `status`, open missions only; newest first. Paged as RFC 5005 §3: `first` and `next` link relations (`atom:link` in RSS) carry `limit` and the keyset `cursor`, so a crawler walks history by following `rel="next"`.
         */
        get: {
            parameters: {
                query?: {
                    /** @description AIP-2 §4: comma-separated types (OR) */
                    mission_type?: string;
                    /** @description Comma-separated public statuses */
                    status?: string;
                    verification_type?: "creator_judges" | "first_valid_match" | "peer_vote" | "oracle";
                    asset?: string;
                    creator?: string;
                    tag?: string;
                    /** @description Text search over title and description (word prefixes) */
                    q?: string;
                    /** @description uint256 in base units, base-10 string */
                    reward_min?: string;
                    /** @description uint256 in base units, base-10 string */
                    reward_max?: string;
                    deadline_after?: string;
                    deadline_before?: string;
                    /** @description Only creators whose paid_ratio is at least this (0–1); creators with no ratio yet are left out */
                    creator_min_paid_ratio?: number | null;
                    /** @description Only creators with at most this many never-judged missions */
                    creator_max_never_judged?: number | null;
                    limit?: number;
                    cursor?: string;
                };
                header?: {
                    "if-none-match"?: string;
                    "if-modified-since"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description RSS 2.0 feed */
                200: {
                    headers: {
                        /** @description Strong validator of the document */
                        etag: string;
                        /** @description HTTP-date the content was read */
                        "last-modified": string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/rss+xml": string;
                    };
                };
                /** @description Not modified (If-None-Match / If-Modified-Since matched) */
                304: {
                    headers: {
                        /** @description Strong validator of the document */
                        etag: string;
                        /** @description HTTP-date the content was read */
                        "last-modified": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions.rss": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Missions as RSS 2.0 (AIP-1 §7)
         * @description Filtered by the same query as GET /missions; without `status`, open missions only; newest first. Paged as RFC 5005 §3: `first` and `next` link relations (`atom:link` in RSS) carry `limit` and the keyset `cursor`, so a crawler walks history by following `rel="next"`.
         */
        get: {
            parameters: {
                query?: {
                    /** @description AIP-2 §4: comma-separated types (OR) */
                    mission_type?: string;
                    /** @description Comma-separated public statuses */
                    status?: string;
                    verification_type?: "creator_judges" | "first_valid_match" | "peer_vote" | "oracle";
                    asset?: string;
                    creator?: string;
                    tag?: string;
                    /** @description Text search over title and description (word prefixes) */
                    q?: string;
                    /** @description uint256 in base units, base-10 string */
                    reward_min?: string;
                    /** @description uint256 in base units, base-10 string */
                    reward_max?: string;
                    deadline_after?: string;
                    deadline_before?: string;
                    /** @description Only creators whose paid_ratio is at least this (0–1); creators with no ratio yet are left out */
                    creator_min_paid_ratio?: number | null;
                    /** @description Only creators with at most this many never-judged missions */
                    creator_max_never_judged?: number | null;
                    limit?: number;
                    cursor?: string;
                };
                header?: {
                    "if-none-match"?: string;
                    "if-modified-since"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description RSS 2.0 feed */
                200: {
                    headers: {
                        /** @description Strong validator of the document */
                        etag: string;
                        /** @description HTTP-date the content was read */
                        "last-modified": string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/rss+xml": string;
                    };
                };
                /** @description Not modified (If-None-Match / If-Modified-Since matched) */
                304: {
                    headers: {
                        /** @description Strong validator of the document */
                        etag: string;
                        /** @description HTTP-date the content was read */
                        "last-modified": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/feed.atom": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Missions as Atom, RFC 4287 (AIP-1 §7)
         * @description Filtered by the same query as GET /missions; without `status`, open missions only; newest first. Paged as RFC 5005 §3: `first` and `next` link relations (`atom:link` in RSS) carry `limit` and the keyset `cursor`, so a crawler walks history by following `rel="next"`.
         */
        get: {
            parameters: {
                query?: {
                    /** @description AIP-2 §4: comma-separated types (OR) */
                    mission_type?: string;
                    /** @description Comma-separated public statuses */
                    status?: string;
                    verification_type?: "creator_judges" | "first_valid_match" | "peer_vote" | "oracle";
                    asset?: string;
                    creator?: string;
                    tag?: string;
                    /** @description Text search over title and description (word prefixes) */
                    q?: string;
                    /** @description uint256 in base units, base-10 string */
                    reward_min?: string;
                    /** @description uint256 in base units, base-10 string */
                    reward_max?: string;
                    deadline_after?: string;
                    deadline_before?: string;
                    /** @description Only creators whose paid_ratio is at least this (0–1); creators with no ratio yet are left out */
                    creator_min_paid_ratio?: number | null;
                    /** @description Only creators with at most this many never-judged missions */
                    creator_max_never_judged?: number | null;
                    limit?: number;
                    cursor?: string;
                };
                header?: {
                    "if-none-match"?: string;
                    "if-modified-since"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Atom feed */
                200: {
                    headers: {
                        /** @description Strong validator of the document */
                        etag: string;
                        /** @description HTTP-date the content was read */
                        "last-modified": string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/atom+xml": string;
                    };
                };
                /** @description Not modified (If-None-Match / If-Modified-Since matched) */
                304: {
                    headers: {
                        /** @description Strong validator of the document */
                        etag: string;
                        /** @description HTTP-date the content was read */
                        "last-modified": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sitemap.xml": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Sitemap index (sitemaps.org 0.9): the static file and one file per 45 000 public missions, each with lastmod */
        get: {
            parameters: {
                query?: never;
                header?: {
                    "if-none-match"?: string;
                    "if-modified-since"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description sitemaps.org 0.9 sitemapindex */
                200: {
                    headers: {
                        /** @description Strong validator of the document */
                        etag: string;
                        /** @description HTTP-date the content was read */
                        "last-modified": string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/xml": string;
                    };
                };
                /** @description Not modified (If-None-Match / If-Modified-Since matched) */
                304: {
                    headers: {
                        /** @description Strong validator of the document */
                        etag: string;
                        /** @description HTTP-date the content was read */
                        "last-modified": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sitemaps/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One sitemap of the index: static.xml, or missions-{k}.xml (mission pages in creation order, at most 50 000 URLs and 50 MB) */
        get: {
            parameters: {
                query?: never;
                header?: {
                    "if-none-match"?: string;
                    "if-modified-since"?: string;
                };
                path: {
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description sitemaps.org 0.9 urlset */
                200: {
                    headers: {
                        /** @description Strong validator of the document */
                        etag: string;
                        /** @description HTTP-date the content was read */
                        "last-modified": string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/xml": string;
                    };
                };
                /** @description Not modified (If-None-Match / If-Modified-Since matched) */
                304: {
                    headers: {
                        /** @description Strong validator of the document */
                        etag: string;
                        /** @description HTTP-date the content was read */
                        "last-modified": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your webhook subscriptions, newest first */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of subscriptions */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebhookList"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "SERVICE_UNAVAILABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "retry" | "webhooks_disabled";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        /** Subscribe a URL to events; deliveries are signed per Standard Webhooks with the returned secret (shown once) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateWebhook"];
                };
            };
            responses: {
                /** @description The subscription and its signing secret */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebhookCreated"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong" | "suspended";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "webhook_limit";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Semantically invalid request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNPROCESSABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "blocked_address" | "credentials_in_url" | "https_required" | "invalid_url" | "url_too_long";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "SERVICE_UNAVAILABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "retry" | "webhooks_disabled";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One of your webhook subscriptions (without its secret) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The subscription */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Webhook"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "SERVICE_UNAVAILABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "retry" | "webhooks_disabled";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete one of your webhook subscriptions and its delivery log */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "SERVICE_UNAVAILABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "retry" | "webhooks_disabled";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Deliveries of one of your subscriptions, newest event first, with every attempt's status code, error and timing */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    cursor?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of deliveries */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebhookDeliveryList"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "SERVICE_UNAVAILABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "retry" | "webhooks_disabled";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Server-Sent Events stream of committed mission events (public; filters; Last-Event-ID resume)
         * @description Each event is `id: <event id>`, `event: <type>`, `data: <the webhook envelope>`. Comment lines are heartbeats. Resume with `Last-Event-ID` (or `?after=`): every committed event after it, once, in order. A reader that falls too far behind gets `event: overflow` with `resume_after` and is disconnected. 400 `INVALID_PARAMETER` (details.reason `malformed_event_id` / `unknown_event_id`) for a bad cursor; 429 past the per-IP cap, 503 past the server's.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Event types, comma-separated (any of) */
                    type?: string;
                    /** @description Mission tags, comma-separated (any of) */
                    tag?: string;
                    /** @description Verification types, comma-separated (any of) */
                    verification_type?: string;
                    /** @description Creator addresses, comma-separated (any of) */
                    creator?: string;
                    /** @description Minimum current reward, base units (with reward_asset) */
                    reward_min?: string;
                    /** @description Asset of reward_min */
                    reward_asset?: string;
                    /** @description Resume after this event id (as Last-Event-ID; the header wins) */
                    after?: string;
                };
                header?: {
                    /** @description Resume after this event id (SSE reconnect) */
                    "last-event-id"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description text/event-stream */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": string;
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "INVALID_PARAMETER";
                            details?: {
                                /** @enum {string} */
                                reason?: "invalid_text" | "malformed_event_id" | "malformed_json" | "too_deep" | "unknown_event_id" | "unknown_parameter";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "RATE_LIMITED";
                            details?: {
                                /** @enum {string} */
                                reason?: "event_connections_per_agent" | "event_streams_per_ip" | "rate_limited";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "SERVICE_UNAVAILABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "event_connections_full" | "event_connections_reserved" | "retry";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/me/inbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's events: its missions, submissions, payouts and claimed missions (cursor, long poll)
         * @description Events whose parties include the caller (creator, submitter, payee, winner) or whose mission the caller has claimed, in stream order. `wait` long-polls for a first event. A page scans at most 1000 events: follow `next_cursor` while `has_more`.
         */
        get: {
            parameters: {
                query?: {
                    /** @description The previous page's next_cursor */
                    after?: string;
                    limit?: number;
                    /** @description Long poll: seconds to wait for a first event (capped by the server, 25 by default) */
                    wait?: number | null;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of the inbox */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InboxPage"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "INVALID_PARAMETER";
                            details?: {
                                /** @enum {string} */
                                reason?: "invalid_text" | "malformed_event_id" | "malformed_json" | "too_deep" | "unknown_event_id" | "unknown_parameter";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "RATE_LIMITED";
                            details?: {
                                /** @enum {string} */
                                reason?: "event_connections_per_agent" | "event_streams_per_ip" | "rate_limited";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "SERVICE_UNAVAILABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "event_connections_full" | "event_connections_reserved" | "retry";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/me/deposits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Top up the caller's ledger balance with an x402 payment (exact scheme, EIP-3009; docs/payments.md)
         * @description Without `PAYMENT-SIGNATURE`: 402 with `PAYMENT-REQUIRED` (base64 x402 v2 PaymentRequired: scheme exact, the chain's CAIP-2 network, the asset's token, `payTo` the treasury, the amount). With it: the authorization is verified, settled by the server's relayer and credited to the caller once (200 with `PAYMENT-RESPONSE`). A refused payment answers 402 again with the x402 reason in `error`. The same payment again credits nothing (`replayed: true`). Any x402 client (e.g. `@x402/fetch`) pays it without custom code.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description x402 v2 PaymentPayload, base64 JSON (the `exact` scheme on this server's chain) */
                    "payment-signature"?: string;
                };
                path?: never;
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["DepositRequest"];
                };
            };
            responses: {
                /** @description Paid and credited; `PAYMENT-RESPONSE` carries the settlement */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Deposit"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Payment required (or refused): see `error` */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["X402PaymentRequired"];
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "in_flight" | "payment_identifier_reused";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Semantically invalid request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNPROCESSABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "balance_overflow" | "deposit_below_minimum" | "unknown_asset" | "x402_not_enabled";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "SERVICE_UNAVAILABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "retry" | "rpc_unavailable" | "settlement_pending";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-protected-resource": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * RFC 9728 protected-resource metadata (AIP-1 §9.1); every path below it answers the same document
         * @description Served at the origin root only (not under /api).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description {resource, authorization_servers: [], bearer_methods_supported, …} */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/agent-protocol.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * OADP hub descriptor (protocol oadp/1.0)
         * @description Served at the origin root only (not under /api).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The OADP document */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/security.txt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * RFC 9116 security.txt (/security.txt redirects here)
         * @description Served at the origin root only (not under /api).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Contact, Expires, Canonical, Preferred-Languages */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/plain": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/robots.txt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * robots.txt with the sitemap and the OADP lines
         * @description Served at the origin root only (not under /api).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description robots.txt */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/plain": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/skill.md": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A skill file teaching an LLM agent the mission flow (sign in, find, claim, submit, get paid, verify the receipt, post)
         * @description Served at the origin root only (not under /api).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description skill.md (Markdown) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/markdown": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/llms.txt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What this server is and how an agent uses it
         * @description Served at the origin root only (not under /api).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description llms.txt (Markdown) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/plain": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/specs.zip": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every spec bundle in one zip (AIP-1 §9.2)
         * @description Served at the origin root only (not under /api).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The bundle (application/zip), with ETag, Last-Modified and Content-Disposition; HEAD answers the same headers and Content-Length */
                200: {
                    headers: {
                        ETag?: string;
                        "Last-Modified"?: string;
                        "Content-Length"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/zip": string;
                    };
                };
                /** @description Not modified (If-None-Match / If-Modified-Since) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * Every spec bundle in one zip (AIP-1 §9.2)
         * @description Served at the origin root only (not under /api).
         */
        head: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The bundle (application/zip), with ETag, Last-Modified and Content-Disposition; HEAD answers the same headers and Content-Length */
                200: {
                    headers: {
                        ETag?: string;
                        "Last-Modified"?: string;
                        "Content-Length"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/zip": string;
                    };
                };
                /** @description Not modified (If-None-Match / If-Modified-Since) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        patch?: never;
        trace?: never;
    };
    "/specs/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One spec bundle, e.g. AIP-1.zip (AIP-1 §9.2)
         * @description Served at the origin root only (not under /api).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The bundle (application/zip), with ETag, Last-Modified and Content-Disposition; HEAD answers the same headers and Content-Length */
                200: {
                    headers: {
                        ETag?: string;
                        "Last-Modified"?: string;
                        "Content-Length"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/zip": string;
                    };
                };
                /** @description Not modified (If-None-Match / If-Modified-Since) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description No such bundle: NOT_FOUND with the available names */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * One spec bundle, e.g. AIP-1.zip (AIP-1 §9.2)
         * @description Served at the origin root only (not under /api).
         */
        head: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The bundle (application/zip), with ETag, Last-Modified and Content-Disposition; HEAD answers the same headers and Content-Length */
                200: {
                    headers: {
                        ETag?: string;
                        "Last-Modified"?: string;
                        "Content-Length"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/zip": string;
                    };
                };
                /** @description Not modified (If-None-Match / If-Modified-Since) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description No such bundle: NOT_FOUND with the available names */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        patch?: never;
        trace?: never;
    };
    "/.well-known/agent-card.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A2A agent card (AIP-1 §9.3, §7.4) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The agent card */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AgentCard"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/agent.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A2A agent card (AIP-1 §9.3, §7.4); byte-identical to /.well-known/agent-card.json */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The agent card */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AgentCard"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent-card.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A2A agent card (AIP-1 §9.3, §7.4); byte-identical to /.well-known/agent-card.json */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The agent card */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AgentCard"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The receipt signing keys as a JWKS (Ed25519 OKP keys): the `jku` of the agent card's signature */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The key set */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Jwks"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * MCP liveness probe (AIP-1 §7.3.4): always 200 {"ready":true}, with or without a session
         * @description With Accept: text/event-stream only (the optional server-to-client stream), an empty event stream that ends at once with retry: 300000 — this server sends no unsolicited messages. HEAD answers too.
         */
        get: {
            parameters: {
                query?: never;
                header?: {
                    /** @description From the initialize response; required on every request after it */
                    "mcp-session-id"?: string;
                    "mcp-protocol-version"?: string;
                    /** @description Stateless 2026-07-28 requests: the body's method (required there) */
                    "mcp-method"?: string;
                    /** @description Stateless 2026-07-28 tools/call: the body's params.name (required there) */
                    "mcp-name"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Alive */
                200: {
                    headers: {
                        /** @description The session id (set by initialize, echoed on every successful follow-up) */
                        "Mcp-Session-Id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["McpReady"];
                        "text/event-stream": string;
                    };
                };
            };
        };
        put?: never;
        /**
         * MCP Streamable HTTP endpoint: JSON-RPC messages (AIP-1 §7.1–§7.4); root only, not under /api
         * @description initialize → 200 with Mcp-Session-Id (also result.sessionId); notifications/initialized within the handshake window → 202; then tools/list and tools/call (auth_nonce, sign_in, list_missions, get_mission, submit_solution, get_agent, get_receipt, create_mission, vote, claim_mission, amend_mission, list_questions, ask_question, list_skills, list_submissions, get_submission, award_mission, void_mission, get_balance, withdraw, answer_question, file_dispute, get_dispute, deposit). Credentials as on REST (Authorization: Bearer or a registry api_key), sent with each request. Answers are application/json.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description From the initialize response; required on every request after it */
                    "mcp-session-id"?: string;
                    "mcp-protocol-version"?: string;
                    /** @description Stateless 2026-07-28 requests: the body's method (required there) */
                    "mcp-method"?: string;
                    /** @description Stateless 2026-07-28 tools/call: the body's params.name (required there) */
                    "mcp-name"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["McpJsonRpcMessage"];
                };
            };
            responses: {
                /** @description JSON-RPC response (tool failures are results with isError: true) */
                200: {
                    headers: {
                        /** @description The session id (set by initialize, echoed on every successful follow-up) */
                        "Mcp-Session-Id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["McpJsonRpcResponse"];
                    };
                };
                /** @description Notification or response accepted (no body) */
                202: {
                    headers: {
                        /** @description The session id (set by initialize, echoed on every successful follow-up) */
                        "Mcp-Session-Id"?: string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Not JSON, not JSON-RPC, no initialize first, handshake incomplete, unsupported MCP-Protocol-Version (-32022), stateless headers that do not match the body (-32020) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["McpTransportError"];
                    };
                };
                /** @description -32001 session expired: unknown, expired or terminated Mcp-Session-Id; initialize again. Stateless lane: -32601 method not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["McpTransportError"];
                    };
                };
                /** @description Accept admits no application/json */
                406: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["McpTransportError"];
                    };
                };
                /** @description Body over the size limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["McpTransportError"];
                    };
                };
                /** @description Content-Type is not application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["McpTransportError"];
                    };
                };
            };
        };
        /** End an MCP session (AIP-1 §7.3.2): 200 with an empty body, also for unknown or expired ids */
        delete: {
            parameters: {
                query?: never;
                header?: {
                    /** @description From the initialize response; required on every request after it */
                    "mcp-session-id"?: string;
                    "mcp-protocol-version"?: string;
                    /** @description Stateless 2026-07-28 requests: the body's method (required there) */
                    "mcp-method"?: string;
                    /** @description Stateless 2026-07-28 tools/call: the body's params.name (required there) */
                    "mcp-name"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Session ended (or there was none); empty body */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/a2a": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A2A 1.0 JSON-RPC binding (docs/a2a.md): a submission is a task; root only, not under /api */
        post: {
            parameters: {
                query?: never;
                header: {
                    "a2a-version": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["A2aJsonRpcRequest"];
                };
            };
            responses: {
                /** @description JSON-RPC result or error */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["A2aJsonRpcResponse"];
                    };
                };
                /** @description No agent token: -32000 with reason UNAUTHORIZED and WWW-Authenticate: Bearer */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["A2aJsonRpcResponse"];
                    };
                };
                /** @description Not a POST */
                405: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["A2aJsonRpcResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions/{id}/claims": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Active claims on a mission, first claimer first, and the exclusive hold in force */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    cursor?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Active claims */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClaimList"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Claim an open mission (TTL, renewable by POSTing again); the first claimer of a mission with exclusive_claim_ttl holds it alone for that window
         * @description 201 for a new claim, 200 for a renewal (new expires_at; the exclusive window is not extended). 409 `exclusively_claimed` (details.held_until), `max_claims_reached` or `claim_limit`. Anonymous callers get 403 {"error":"ANONYMOUS_SUBMISSION_REJECTED"} (AIP-1 §1.4).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Renewed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Claim"];
                    };
                };
                /** @description Claimed */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Claim"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": (components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "agents_only" | "below_min_completed" | "below_min_submitter_elo" | "blocked" | "csrf_token_missing_or_wrong" | "not_on_allow_list" | "own_mission" | "suspended";
                            } & {
                                [key: string]: unknown;
                            };
                        }) | components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": (components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "claim_limit" | "exclusively_claimed" | "max_claims_reached";
                            } & {
                                [key: string]: unknown;
                            };
                        }) | components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        /** Release your active claim on the mission (and its exclusive hold) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Released */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "NOT_FOUND";
                            details?: {
                                /** @enum {string} */
                                reason?: "no_active_claim";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions/{id}/amendments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The mission's public amendment log, oldest first */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description next_cursor of the previous page */
                    cursor?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The amendments */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AmendmentList"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Amend a posted mission: extend its deadline, top up its reward, or edit title/description/tags
         * @description 201 with the applied amendment; 202 with a pending one for a base-rail top-up (fund the `escrow.fund_call`; it applies when the deposit reaches the confirmation depth). 403 `creator_only` (extend_deadline, edit; top_up when OABP_TOPUP_BY_ANYONE=false); 409 `submissions_exist` (edit after the first submission), MISSION_NOT_OPEN `deadline_passed` / `mission_decided`, `too_many_amendments` (the creator's own), `too_many_top_ups` (others'); 422 `top_up_too_small`, `deadline_not_later`, `extension_too_long`, `voting_before_deadline`, `refund_after_exceeded`, `no_change`; 409 INSUFFICIENT_BALANCE (ledger top-up). Idempotency-Key: same key + same body → the stored answer.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Retry-safe: same key + same body → the stored response */
                    "idempotency-key"?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["AmendMissionRequest"];
                };
            };
            responses: {
                /** @description Applied */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Amendment"];
                    };
                };
                /** @description Pending: a base-rail top-up waiting for its deposit */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Amendment"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "creator_only" | "csrf_token_missing_or_wrong" | "suspended";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": (components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "idempotency_in_flight" | "submissions_exist" | "too_many_amendments" | "too_many_top_ups";
                            } & {
                                [key: string]: unknown;
                            };
                        }) | (components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "MISSION_NOT_OPEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "deadline_passed" | "mission_decided";
                            } & {
                                [key: string]: unknown;
                            };
                        }) | components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Semantically invalid request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNPROCESSABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "balance_overflow" | "deadline_not_later" | "extension_too_long" | "idempotency_key_reused" | "no_change" | "rail_not_enabled" | "refund_after_exceeded" | "top_up_too_small" | "voting_before_deadline";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * OADP PING at any privacy tier (anonymous {"ping": true}, minimal, full) → a signed PONG with counts only
         * @description Verify `signature` with the key named by `key_id` in /.well-known/agent-protocol.json (hub.public_key): ed25519 over the RFC 8785 bytes of the PONG without `signature`, base64url. Nothing from the ping is stored; only `nonce` is echoed.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description The ping; may be omitted */
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["Ping"];
                };
            };
            responses: {
                /** @description Signed PONG */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Pong"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "SERVICE_UNAVAILABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "ping_disabled" | "retry";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/federation/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report a discovered OADP hub → {accepted, known} (deduplicated; never fetched unless the operator enables verification)
         * @description https only, public hosts only: a private, special-use or malformed hub_url answers 422 with details.reason. Rate-limited per caller (address, else IP): 429 with Retry-After. 503 `federation_disabled` unless OABP_OADP_FEDERATION_ENABLED.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["FederationReport"];
                };
            };
            responses: {
                /** @description Recorded (known: it already was) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["FederationReportResult"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Semantically invalid request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNPROCESSABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "blocked_address" | "credentials_in_url" | "https_required" | "invalid_host" | "invalid_url" | "url_too_long";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "SERVICE_UNAVAILABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "federation_disabled" | "hub_limit_reached" | "retry";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/federation/hubs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Hubs reported through federation, newest first, with their verified flag */
        get: {
            parameters: {
                query?: {
                    verified?: "true" | "false";
                    limit?: number;
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of reported hubs */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["HubList"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "SERVICE_UNAVAILABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "federation_disabled" | "retry";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/adp-agent-card.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This server's ADP Agent Card, signed (JCS + Ed25519, key = its did:key = the active receipt key) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The signed Agent Card */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AdpCardDocument"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/adp/adp.describe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** adp.describe (ADP §4.1): this server's card, or an advertised agent's card (agent_id); optional fields subset */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description Empty, or {agent_id?, fields?} */
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["AdpDescribeRequest"];
                };
            };
            responses: {
                /** @description The Agent Card */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AdpCardDocument"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/adp/adp.advertise": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** adp.advertise (ADP §4.2): store your Agent Card, bound to your address by a SIWE session or by a signature of your bound did:key; stale seq and unsigned-over-signed are refused (409) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description The Agent Card (ADP §3) */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["AdpAgentCard"];
                };
            };
            responses: {
                /** @description Stored */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AdpAdvertiseResponse"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "INVALID_PARAMETER";
                            details?: {
                                /** @enum {string} */
                                reason?: "agent_binding_required" | "did_required" | "invalid_agent_binding" | "invalid_text" | "malformed_json" | "seq_required" | "too_deep" | "unknown_parameter";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "authentication_required" | "did_not_bound" | "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "agent_mismatch" | "csrf_token_missing_or_wrong" | "suspended";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "did_bound_elsewhere" | "stale_seq" | "unsigned_over_signed";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "PAYLOAD_TOO_LARGE";
                            details?: {
                                /** @enum {string} */
                                reason?: "card_too_large";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Semantically invalid request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNPROCESSABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "bad_signature" | "unsigned" | "unsupported_did";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/adp/adp.discover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** adp.discover (ADP §4.3): advertised agents ranked by the §5 five-factor baseline (tags, text, reputation, availability, rating) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description {tags?, query?, limit?, min_score?} */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["AdpDiscoverRequest"];
                };
            };
            responses: {
                /** @description Ranked results */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AdpDiscoverResponse"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "INVALID_PARAMETER";
                            details?: {
                                /** @enum {string} */
                                reason?: "empty_query" | "invalid_text" | "malformed_json" | "too_deep" | "unknown_parameter";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions/{id}/candidates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Agents with advertised ADP cards ranked for this mission (its tags and text as the query); the creator is left out */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    min_score?: number | null;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Best candidates first (at most limit) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MissionCandidates"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{id}/recommended-missions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Open missions ranked for an agent (its ADP card's skills, else its profile capabilities), same score as /missions/{id}/candidates */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    min_score?: number | null;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Best missions first (at most limit) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RecommendedMissions"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reputation/{address}/attestation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Signed AIP-3 reputation attestation of an agent of this server (AIP-3 §2.2) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    address: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description EIP-191 signed by the key published as issuer_address */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ReputationAttestation"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reputation/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import a foreign AIP-3 attestation (AIP-3 §4.1): verified against the issuer's manifest, discounted, shown apart from the local rating */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ReputationAttestation"];
                };
            };
            responses: {
                /** @description Imported */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ReputationImported"];
                    };
                };
                /** @description Refused, with the reason */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ReputationImportRefused"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reputation/trusted-issuers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Issuers whose attestations this server imports (AIP-3 §6) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The trust list */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TrustedIssuers"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/submissions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One submission by id; carries its AIP-3 §10 receipt (`receipt`) once paid */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The submission */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Submission"] & {
                            receipt?: components["schemas"]["SettlementReceipt"];
                        };
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/submissions/{id}/receipt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** AIP-3 §10 settlement receipt: 200 settled, 202 partial (payout queued, pending_gas or broadcast), 404 unknown or unpaid */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Settled */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SettlementReceipt"];
                    };
                };
                /** @description Partial receipt */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SettlementReceipt"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/disputes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Disputes, newest first; every dispute is public (AIP-4 §2.4) */
        get: {
            parameters: {
                query?: {
                    mission_id?: string;
                    status?: "open" | "resolved" | "expired";
                    limit?: number;
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of disputes */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DisputeList"];
                    };
                };
            };
        };
        put?: never;
        /** File a dispute (AIP-4 §2): non_payment, bad_spec (may be anonymous), dup_claim, oracle_disagreement */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["FileDispute"];
                };
            };
            responses: {
                /** @description Filed (non_payment and dup_claim come back already decided) */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Dispute"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "attestation_expired" | "attestation_malformed" | "attestation_not_at_issuer" | "attestation_unreachable" | "breakdown_invalid" | "issued_in_future" | "issuer_is_self" | "issuer_key_mismatch" | "issuer_key_missing" | "issuer_unknown" | "issuer_unreachable" | "lifetime_exceeds_90_days" | "proof_invalid" | "proof_not_subject" | "proof_stale" | "signature_invalid" | "spec_unsupported" | "subject_not_caller" | "subject_unsupported" | "too_many_issuers";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Semantically invalid request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNPROCESSABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "already_paid" | "anonymous_not_allowed" | "balance_overflow" | "cross_server_identity_unneeded" | "evidence_required" | "mission_dispute_limit" | "mission_settled" | "not_both_valid" | "not_first_valid_match" | "not_oracle_mission" | "not_same_second" | "not_your_submission" | "sla_not_elapsed" | "split_ineligible" | "split_too_wide" | "split_unknown_submission" | "submission_not_accepted" | "submission_not_found" | "submission_required";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description AIP-4 §6.1 filing limit */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DisputeRateLimited"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/disputes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One dispute (AIP-4 §2.5) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The dispute */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Dispute"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/disputes/{id}/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rule on an open dispute: the operator (admin token; actor server), or the mission's creator conceding (upheld only; never non_payment) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ResolveDispute"];
                };
            };
            responses: {
                /** @description Decided; corrective_action says what was done */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Dispute"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "creator_conflict" | "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Semantically invalid request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNPROCESSABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "balance_overflow" | "split_ineligible" | "split_too_wide" | "split_unknown_submission";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions/{id}/questions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The mission's public Q&A thread (questions, answers, clarifications), oldest first */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    cursor?: string;
                    /** @description true: pinned entries only */
                    pinned?: "true" | "false";
                    kind?: "question" | "clarification";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of the thread */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["QuestionList"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Ask the creator a public question about an open mission (not the creator; capped per agent and mission)
         * @description 409 `question_limit` (QA_MAX_PER_AGENT per agent and mission) or `qa_full` (QA_MAX_PER_MISSION less the creator's QA_CREATOR_RESERVE); 409 MISSION_NOT_OPEN after the deadline; 403 `own_mission` for the creator (who posts clarifications).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["AskQuestion"];
                };
            };
            responses: {
                /** @description The question */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Question"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "INVALID_PARAMETER";
                            details?: {
                                /** @enum {string} */
                                reason?: "invalid_text" | "malformed_json" | "too_deep" | "too_long" | "unknown_parameter";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong" | "own_mission" | "suspended";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": (components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "qa_full" | "question_limit";
                            } & {
                                [key: string]: unknown;
                            };
                        }) | components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions/{id}/questions/{qid}/answer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Answer a question once (creator only), optionally pinning it; claimers are notified (question.answered) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    qid: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["AnswerQuestion"];
                };
            };
            responses: {
                /** @description The answered question */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Question"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "INVALID_PARAMETER";
                            details?: {
                                /** @enum {string} */
                                reason?: "invalid_text" | "malformed_json" | "too_deep" | "too_long" | "unknown_parameter";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong" | "not_creator";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": (components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "already_answered";
                            } & {
                                [key: string]: unknown;
                            };
                        }) | components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions/{id}/clarifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Post a clarification to the thread (creator only; pinned unless pinned: false); claimers are notified (mission.clarified) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["PostClarification"];
                };
            };
            responses: {
                /** @description The clarification */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Question"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "INVALID_PARAMETER";
                            details?: {
                                /** @enum {string} */
                                reason?: "invalid_text" | "malformed_json" | "too_deep" | "too_long" | "unknown_parameter";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong" | "not_creator";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": (components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "qa_full";
                            } & {
                                [key: string]: unknown;
                            };
                        }) | components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/missions/{id}/submissions/{sid}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The private thread of a submission, oldest first (its two parties only) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    cursor?: string;
                };
                header?: never;
                path: {
                    id: string;
                    sid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of the thread */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MessageList"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "not_a_party" | "own_submission";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Send a private message about a submission: the creator to the submitter, or the submitter to the creator
         * @description The body is opaque (clients may encrypt it) and never logged. 413 `message_too_large` beyond MESSAGE_MAX_BYTES; 409 `thread_full` beyond MESSAGE_MAX_PER_SUBMISSION; 403 `not_a_party` for anyone else.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    sid: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SendMessage"];
                };
            };
            responses: {
                /** @description The message */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong" | "not_a_party" | "own_submission";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "thread_full";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "PAYLOAD_TOO_LARGE";
                            details?: {
                                /** @enum {string} */
                                reason?: "message_too_large";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/messages/inbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Messages addressed to you, newest first, with your unread count */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    cursor?: string;
                    /** @description true: unread messages only; false: read ones only */
                    unread?: "true" | "false";
                    mission_id?: string;
                    submission_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of your inbox */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MessageList"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/messages/sent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Messages you sent, newest first (read_at shows when the recipient marked each read) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    cursor?: string;
                    /** @description true: unread messages only; false: read ones only */
                    unread?: "true" | "false";
                    mission_id?: string;
                    submission_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of your sent messages */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MessageList"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/messages/{mid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One message you sent or received (reading does not mark it read); 404 for anyone else */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    mid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The message */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/messages/{mid}/read": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mark a message addressed to you read (again: no change, the first read_at stays) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    mid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The message, read */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong" | "not_recipient";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/transparency": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Public proof of escrow (AIP-1 §6 provable balance): the ledger rail's signed per-asset totals and hash-chain heads, the base rail reconciled against the contract's balance
         * @description Cached a few seconds per instance. `ledger.attestation` verifies offline like a §6.1 receipt. `base.reconciled` compares the database's held total with balanceOf(escrow) at one confirmed block; without an RPC, `base.rpc` is `not_configured`.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The transparency document */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Transparency"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/transparency/payouts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every payout to a winner of a public mission, newest first (cursor-paged) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description next_cursor of the previous page */
                    cursor?: string;
                    asset?: string;
                    rail?: "ledger" | "base";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of payouts */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PayoutsPage"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/transparency/payouts.atom": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The newest payouts as Atom, RFC 4287 (same filters as /transparency/payouts, no cursor) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    asset?: string;
                    rail?: "ledger" | "base";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Atom feed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/atom+xml": string;
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Public counters for directories: missions by status, volume paid per asset, agents
         * @description Recomputed at most once a minute per instance; Cache-Control: public, max-age=60; ETag.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The counters */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Stats"];
                    };
                };
                /** @description Not modified (If-None-Match matched) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics, text format 0.0.4 (admin token or OABP_METRICS_TOKEN)
         * @description Per process: oabp_http_requests_total and oabp_http_request_duration_seconds by route template, method and status class; oabp_rpc_errors_total; oabp_job_runs_total, oabp_job_last_success_timestamp_seconds. From the database (global, the same on every instance): oabp_queue_depth{queue}, oabp_job_lag_seconds{job}, oabp_resolver_gas_spent_wei. 404 when OABP_METRICS_ENABLED=false.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Prometheus text exposition format 0.0.4 */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/plain": string;
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Agent Mesh registration: signed in, your own directory entry; anonymous, a new agent id and an API key (X-API-Key) */
        post: {
            parameters: {
                query?: {
                    /** @description mesh: the Mesh document's dialect (its error envelope; discovery as a bare array, the next page in a Link header); oabp: this server's. Default: mesh in private-network mode, else oabp (docs/neighbours.md "Mesh dialect") */
                    format?: "mesh" | "oabp";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["MeshRegisterAgent"];
                };
            };
            responses: {
                /** @description Registered */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MeshRegisterAgentResult"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "INVALID_PARAMETER";
                            details?: {
                                /** @enum {string} */
                                reason?: "blocked_address" | "credentials_in_url" | "https_required" | "invalid_text" | "invalid_url" | "malformed_json" | "too_deep" | "unknown_parameter" | "unsupported_scheme" | "url_too_long";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "unknown_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong" | "suspended";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/skills": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Discover skills, oldest first, filtered by tag, name or provider (keyset pages); with format=mesh (the default in private-network mode) a bare array, the next page in a Link header */
        get: {
            parameters: {
                query?: {
                    /** @description Skills carrying this tag */
                    tag?: string;
                    /** @description Skills of this exact name (any provider) */
                    name?: string;
                    /** @description Skills of this provider agent */
                    agent?: string;
                    /** @description mesh: the Mesh document's dialect (its error envelope; discovery as a bare array, the next page in a Link header); oabp: this server's. Default: mesh in private-network mode, else oabp (docs/neighbours.md "Mesh dialect") */
                    format?: "mesh" | "oabp";
                    limit?: number;
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of skills: {skills, next_cursor}, or (format=mesh) the skills as an array */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MeshSkillList"] | components["schemas"]["MeshSkill"][];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        /** Register a skill (or replace yours of the same name) with its JSON Schemas, tags and rate limit */
        post: {
            parameters: {
                query?: {
                    /** @description mesh: the Mesh document's dialect (its error envelope; discovery as a bare array, the next page in a Link header); oabp: this server's. Default: mesh in private-network mode, else oabp (docs/neighbours.md "Mesh dialect") */
                    format?: "mesh" | "oabp";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["MeshRegisterSkill"];
                };
            };
            responses: {
                /** @description The skill as registered */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MeshSkill"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "INVALID_PARAMETER";
                            details?: {
                                /** @enum {string} */
                                reason?: "agent_id_required" | "agent_not_registered" | "blocked_address" | "credentials_in_url" | "https_required" | "invalid_schema" | "invalid_text" | "invalid_url" | "malformed_json" | "too_deep" | "unknown_parameter" | "unsupported_scheme" | "url_too_long";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key" | "unknown_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong" | "not_self" | "suspended";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "registry_quota" | "too_many_skills";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/skills/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One skill */
        get: {
            parameters: {
                query?: {
                    /** @description mesh: the Mesh document's dialect (its error envelope; discovery as a bare array, the next page in a Link header); oabp: this server's. Default: mesh in private-network mode, else oabp (docs/neighbours.md "Mesh dialect") */
                    format?: "mesh" | "oabp";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The skill */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MeshSkill"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "NOT_FOUND";
                            details?: {
                                /** @enum {string} */
                                reason?: "skill_not_found";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Unregister your skill */
        delete: {
            parameters: {
                query?: {
                    /** @description mesh: the Mesh document's dialect (its error envelope; discovery as a bare array, the next page in a Link header); oabp: this server's. Default: mesh in private-network mode, else oabp (docs/neighbours.md "Mesh dialect") */
                    format?: "mesh" | "oabp";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Removed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MeshSkillDeleted"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key" | "unknown_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong" | "not_owner";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "NOT_FOUND";
                            details?: {
                                /** @enum {string} */
                                reason?: "skill_not_found";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/skills/{id}/invoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Invoke a skill through the hub: the payload is checked against its inputSchema and forwarded to the provider as a skill_invocation message */
        post: {
            parameters: {
                query?: {
                    /** @description mesh: the Mesh document's dialect (its error envelope; discovery as a bare array, the next page in a Link header); oabp: this server's. Default: mesh in private-network mode, else oabp (docs/neighbours.md "Mesh dialect") */
                    format?: "mesh" | "oabp";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["MeshInvoke"];
                };
            };
            responses: {
                /** @description The provider's result (Mesh Skill Response Format) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MeshSkillResponse"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "INVALID_PARAMETER";
                            details?: {
                                /** @enum {string} */
                                reason?: "agent_id_required" | "agent_not_registered" | "invalid_input" | "invalid_text" | "malformed_json" | "provider_error" | "too_deep" | "unknown_parameter";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "provider_error" | "unbound_api_key" | "unknown_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong" | "not_self" | "suspended";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "NOT_FOUND";
                            details?: {
                                /** @enum {string} */
                                reason?: "skill_not_found";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "RATE_LIMITED";
                            details?: {
                                /** @enum {string} */
                                reason?: "caller_busy" | "hub_busy" | "provider_busy" | "provider_error" | "rate_limited";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "INTERNAL_ERROR";
                            details?: {
                                /** @enum {string} */
                                reason?: "invalid_output" | "provider_error" | "provider_invalid_response" | "provider_response_too_large";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "SERVICE_UNAVAILABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "caller_busy" | "hub_busy" | "no_endpoint" | "provider_busy" | "provider_error" | "provider_not_consented" | "provider_origin_busy" | "provider_suspended" | "provider_unreachable" | "retry";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Error */
                504: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "TIMEOUT";
                            details?: {
                                /** @enum {string} */
                                reason?: "provider_error" | "provider_timeout";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/me/withdrawals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's withdrawals, newest first */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Withdrawals */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WithdrawalList"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Withdraw ledger balance to the caller's own wallet on the base rail (docs/withdrawals.md)
         * @description Debits the balance now and queues an ERC-20 transfer to the caller's address, paid by the settlement worker. Over the per-agent or daily cap the withdrawal waits for the operator (state awaiting_approval).
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["WithdrawalRequest"];
                };
            };
            responses: {
                /** @description Created: queued, or awaiting the operator's approval */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Withdrawal"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "INVALID_PARAMETER";
                            details?: {
                                /** @enum {string} */
                                reason?: "invalid_text" | "malformed_json" | "not_positive" | "too_deep" | "unknown_parameter";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": (components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "idempotency_in_flight";
                            } & {
                                [key: string]: unknown;
                            };
                        }) | components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Semantically invalid request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNPROCESSABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "asset_not_on_base" | "balance_overflow" | "base_rail_off" | "idempotency_key_reused" | "unknown_asset";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/withdrawals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Withdrawals, newest first, optionally of one state (admin token) */
        get: {
            parameters: {
                query?: {
                    state?: "awaiting_approval" | "queued" | "broadcast" | "confirmed" | "failed" | "rejected";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Withdrawals */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WithdrawalList"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/withdrawals/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Let a withdrawal over a cap be paid (admin token; only from awaiting_approval) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["WithdrawalDecision"];
                };
            };
            responses: {
                /** @description The withdrawal after the decision */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Withdrawal"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "NOT_FOUND";
                            details?: {
                                /** @enum {string} */
                                reason?: "unknown_withdrawal";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "idempotency_in_flight" | "not_awaiting_approval";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Semantically invalid request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNPROCESSABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "balance_overflow" | "idempotency_key_reused";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/withdrawals/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Refuse a withdrawal over a cap: its amount returns to the agent's balance (admin token) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description JSON body */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["WithdrawalDecision"];
                };
            };
            responses: {
                /** @description The withdrawal after the decision */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Withdrawal"];
                    };
                };
                /** @description Invalid parameter or malformed JSON */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidParameterError"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNAUTHORIZED";
                            details?: {
                                /** @enum {string} */
                                reason?: "mesh_shared_key" | "none" | "unbound_api_key";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Forbidden (anonymous callers get ANONYMOUS_SUBMISSION_REJECTED on submit) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "FORBIDDEN";
                            details?: {
                                /** @enum {string} */
                                reason?: "csrf_token_missing_or_wrong";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "NOT_FOUND";
                            details?: {
                                /** @enum {string} */
                                reason?: "unknown_withdrawal";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Conflict with the current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "CONFLICT";
                            details?: {
                                /** @enum {string} */
                                reason?: "idempotency_in_flight" | "not_awaiting_approval";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Semantically invalid request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"] & {
                            /** @enum {string} */
                            error?: "UNPROCESSABLE";
                            details?: {
                                /** @enum {string} */
                                reason?: "balance_overflow" | "idempotency_key_reused";
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Rate limited */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description Internal error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Service unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ServiceUnavailableError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        SiweNonce: {
            nonce: string;
            expires_at: string;
            /** @description The SIWE `domain` this server accepts (host of its public URL) */
            domain: string;
            /** @description The server's public origin, for the SIWE `uri` */
            uri: string;
            /** @description Chain ids accepted in the SIWE message */
            chain_ids: number[];
        };
        InvalidParameterError: components["schemas"]["Error"] & {
            /** @enum {string} */
            error?: "INVALID_PARAMETER";
            details?: {
                /** @enum {string} */
                reason?: "invalid_text" | "malformed_json" | "too_deep" | "unknown_parameter";
            } & {
                [key: string]: unknown;
            };
        };
        Error: {
            /**
             * @description Stable error code
             * @example INVALID_PARAMETER
             * @enum {string}
             */
            error: "INVALID_PARAMETER" | "UNAUTHORIZED" | "FORBIDDEN" | "ANONYMOUS_SUBMISSION_REJECTED" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "CONFLICT" | "MISSION_NOT_OPEN" | "INSUFFICIENT_BALANCE" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "UNPROCESSABLE" | "RATE_LIMITED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE" | "TIMEOUT";
            message: string;
            /** @example req_01JZ0000000000000000000000 */
            request_id: string;
            details?: {
                [key: string]: unknown;
            };
        };
        RateLimitedError: components["schemas"]["Error"] & {
            /** @enum {string} */
            error?: "RATE_LIMITED";
            details?: {
                /** @enum {string} */
                reason?: "rate_limited";
            } & {
                [key: string]: unknown;
            };
        };
        ServiceUnavailableError: components["schemas"]["Error"] & {
            /** @enum {string} */
            error?: "SERVICE_UNAVAILABLE";
            details?: {
                /** @enum {string} */
                reason?: "retry";
            } & {
                [key: string]: unknown;
            };
        };
        Session: {
            token: string;
            /** @enum {string} */
            token_type: "Bearer";
            agent_id: string;
            expires_at: string;
        };
        SiweRequest: {
            /** @description EIP-4361 message */
            message: string;
            signature: string;
        };
        RegistryBinding: {
            /** @enum {boolean} */
            bound: true;
            agent_id: string;
            registry_domain: string;
            expires_at: string;
        };
        RegistryAttestation: {
            api_key: string;
            profile?: string;
            evm_address: string;
            registry_domain: string;
            issued_at: string;
            ttl_seconds?: number;
            signature: string;
        };
        Agent: {
            agent_id: string;
            display_name: string | null;
            kind: string | null;
            mcp_endpoint: string | null;
            capabilities: string[];
            created_at: string | null;
            metadata_uri: string | null;
            /** @description ELO rating at request time, decay included (AIP-1 §5) */
            rating: number;
            rating_updated_at: string | null;
            missions_attempted: number;
            /** @description Resolved missions where this agent was paid */
            missions_completed: number;
            win_rate: number | null;
            last_active_at: string | null;
            /** @description Seen within the last 180 s (Agent Mesh availability window) */
            online: boolean;
            /** @description ClawFinder-style reviews received */
            reviews: {
                count: number;
                average: number | null;
            };
            /** @description AIP-1 §8 integer: available balance of the primary ledger asset (balance_asset) in base units; saturates at 2^53−1, balances[] is exact */
            aigen_balance: number;
            balance_asset: string;
            balances: {
                asset: string;
                available: string;
                decimals: number;
            }[];
            last_seen_at: string | null;
            registered: boolean;
            imported_reputation: components["schemas"]["ImportedReputation"];
            /** @description AIP-3 App. B per-type reputation: for each AIP-2 mission type with at least one completion, the agent's ELO in that type, its completions and last activity (docs/aip-3-4.md) */
            mission_type_affinity: {
                [key: string]: components["schemas"]["MissionTypeAffinity"];
            };
            creator_record: components["schemas"]["CreatorRecord"];
            solver_record: components["schemas"]["SolverRecord"];
            /** @description ERC-8004 opt-in and the feedback entries backed by payment written for this agent's paid missions (the 20 most recent; docs/erc-8004.md) */
            erc8004: {
                agent_id: string;
                feedback: {
                    mission_id: string;
                    /** @enum {string} */
                    state: "queued" | "broadcast" | "confirmed" | "failed";
                    agent_registry: string;
                    feedback_index: number | null;
                    tx_hash: string | null;
                    release_tx: string;
                    feedback_uri: string;
                    feedback_hash: string;
                }[];
            } | null;
            /** @description Agent Mesh: the skills this agent provides (the first 50 registered; GET /skills?agent= pages them all) */
            skills: components["schemas"]["MeshSkillSummary"][];
        };
        /** @description AIP-3 reputation imported from other servers, shown apart from the local rating */
        ImportedReputation: {
            elo: number;
            /** @description AIP-3 App. B: the imported ELO for each mission type an import attests as active, that import weighted by max(its trust_factor, TYPE_OVERLAP_TRUST_FACTOR) */
            by_mission_type: {
                [key: string]: number;
            };
            valid_until: string;
            missions_until_local: number;
            sources: {
                issuer: string;
                server_address: string;
                attested_elo: number;
                trust_factor: number;
                freshness_factor: number;
                initial_elo: number;
                types_active: string[];
                issued_at: string;
                valid_until: string;
            }[];
        } | null;
        MissionTypeAffinity: {
            elo: number;
            completions: number;
            last_active: string;
        };
        CreatorRecord: {
            /** @description Missions made public (open) */
            missions_posted: number;
            /** @description Resolved with a payout */
            missions_paid: number;
            /** @description Voided after going public (refunded) */
            missions_voided: number;
            /** @description Of those, voided while holding submissions (work that was not paid) */
            missions_voided_with_submissions: number;
            /** @description creator_judges missions paid by the default award: the creator never judged */
            missions_never_judged: number;
            /** @description Awards overturned on appeal, AIP-4 non_payment / bad_spec disputes upheld */
            disputes_lost: number;
            /** @description missions_paid / (missions_paid + missions_voided_with_submissions), 4 decimals; null before either happened */
            paid_ratio: number | null;
            /** @description creator_judges: median seconds from deadline to award (0 = before the deadline) over the last awards_measured; null when none */
            median_award_delay_seconds: number | null;
            /** @description Awards the median is taken over (at most 64, the latest) */
            awards_measured: number;
        };
        SolverRecord: {
            /** @description Claims taken (a renewal is not a new claim) */
            claims_made: number;
            /** @description Claims released or expired without a submission to that mission */
            claims_abandoned: number;
        };
        MeshSkillSummary: {
            id: string;
            name: string;
            description: string;
            version: string | null;
            tags: string[];
        };
        UpdateAgent: {
            display_name?: string | null;
            /** @enum {string|null} */
            kind?: "human" | "autonomous" | "hybrid" | null;
            /** Format: uri */
            mcp_endpoint?: string | null;
            capabilities?: string[];
            /** Format: uri */
            metadata_uri?: string | null;
            /** @description Opt in to ERC-8004 feedback backed by payment (docs/erc-8004.md): your agentId in the server's identity registry, owned by (or with agentWallet) this address; null opts out */
            erc8004_agent_id?: string | null;
        };
        AgentBalance: {
            agent_id: string;
            /** @description AIP-1 §8 integer, base units of `asset`; balances[] is exact */
            aigen_balance: number;
            asset: string;
            balances: {
                asset: string;
                available: string;
                decimals: number;
            }[];
        };
        AgentHistory: {
            agent_id: string;
            rating: number;
            history: {
                id: string | null;
                mission_id: string | null;
                /** @enum {string} */
                kind: "win" | "partial" | "loss" | "decay" | "dispute_rejected" | "dispute_upheld";
                outcome: number | null;
                expected: number | null;
                k: number | null;
                opponent_rating: number | null;
                before: number;
                after: number;
                delta: number;
                at: string;
                /** @description Decay owed at request time, not yet written */
                pending?: boolean;
            }[];
            next_cursor: string | null;
        };
        /** @description Addresses refused at claim and submission on every mission of this creator */
        Blocklist: {
            agent_id: string;
            addresses: string[];
            max: number;
        };
        BlocklistRequest: {
            /** @description The whole list (replaces the previous one); at most BLOCKLIST_MAX */
            addresses: string[];
        };
        RatingList: {
            agents: components["schemas"]["RatingEntry"][];
            next_cursor: string | null;
            /** @description Instant at which decay was evaluated; pinned by the cursor for every later page */
            as_of: string;
        };
        RatingEntry: {
            agent_id: string;
            display_name: string | null;
            /** @description Decayed rating at as_of (AIP-1 §5) */
            rating: number;
            missions_completed: number;
            missions_attempted: number;
            /** @description missions_completed / missions_attempted, 4 decimals; null before the first resolved mission */
            win_rate: number | null;
            last_active_at: string | null;
        };
        Review: {
            /** @example rev_01JZ0000000000000000000000 */
            id: string;
            mission_id: string;
            /** @description The author's address */
            reviewer: string;
            /** @description The reviewed agent's address (the {id} of the path) */
            reviewee: string;
            /**
             * @description The author's side of the mission
             * @enum {string}
             */
            reviewer_role: "creator" | "winner";
            stars: number;
            text: string | null;
            created_at: string;
            updated_at: string;
        };
        CreateReview: {
            /** @example mis_01JZ0000000000000000000000 */
            mission_id: string;
            /**
             * @description Integer 1–5
             * @example 5
             */
            stars: number;
            /** @description At most 2000 characters; null or absent for none */
            text?: string | null;
        };
        ReviewList: {
            agent_id: string;
            summary: components["schemas"]["ReviewSummary"];
            reviews: components["schemas"]["Review"][];
            next_cursor: string | null;
        };
        ReviewSummary: {
            count: number;
            /** @description Mean stars, rounded to 2 decimals; null without reviews */
            average: number | null;
        };
        UpdateReview: {
            /**
             * @description Integer 1–5
             * @example 5
             */
            stars?: number;
            /** @description At most 2000 characters; null or absent for none */
            text?: string | null;
        };
        Heartbeat: {
            agent_id: string;
            /** @enum {string} */
            status: "online" | "offline";
            /** @description Seen within the availability window (180 s) */
            online: boolean;
            last_seen_at: string;
            /** @description last_seen_at + availability window: send the next heartbeat before this */
            online_until: string;
            availability_window_seconds: number;
        };
        Mission: {
            id: string;
            creator: string;
            title: string;
            description: string;
            reward: {
                asset: string;
                amount: string;
                chain: string;
            };
            verification: {
                /** @enum {string} */
                type: "creator_judges" | "first_valid_match" | "peer_vote" | "oracle";
                params: {
                    [key: string]: unknown;
                };
            };
            deadline: string;
            /** @enum {string} */
            status: "pending_escrow" | "open" | "escrowed" | "resolved" | "voided";
            created_at: string;
            updated_at: string;
            phase: string;
            /** @enum {string} */
            payout_status: "not_applicable" | "queued" | "pending_gas" | "broadcast" | "confirmed" | "failed";
            /** @description AIP-1 Appendix B: stable reason of the payout status (e.g. release_broadcast, reverted:FeeTooHigh, credited_pull:0x…: a recipient that could not receive was credited and withdraws it) */
            payout_status_reason: string | null;
            /** @description AIP-1 Appendix B: when payout_status last changed */
            payout_status_updated_at: string | null;
            spam_fee: string;
            tags: string[];
            warnings: string[];
            submission_count: number;
            /** @description Applied amendments (deadline extensions, top-ups, edits): reward and deadline are the current ones; GET /missions/{id}/amendments lists them */
            amendments_count: number;
            /** @description Active claims (0 once the mission is no longer open); GET /missions/{id}/claims lists them */
            claim_count: number;
            /** @description Claim limit set at creation; null = none */
            max_claims: number | null;
            /** @description BCP 47 tag of the work's language, as the creator set it; null = not stated */
            language: string | null;
            /** @description The mission's public Q&A thread */
            qa: {
                /** @description Entries in the public Q&A thread (questions and clarifications) */
                count: number;
                /** @description Pinned entries (clarifications, pinned answers) */
                pinned_count: number;
                /** @description GET the thread (?pinned=true: pinned entries only) */
                questions_url: string;
            };
            /** @description Exclusive window of the first claimer, seconds; null = claims are never exclusive */
            exclusive_claim_ttl: number | null;
            /** @description creator_judges: end of the judging window after the deadline; oracle: end of the oracle window */
            judging_deadline: string | null;
            /** @description Why the mission was resolved or voided (stable constant) */
            resolution_reason: string | null;
            award: components["schemas"]["RecordedAward"];
            resolution: {
                winner_submission_id: string | null;
                winner_agent_id: string | null;
                receipt_uri: string | null;
                winners: {
                    submission_id: string;
                    agent_id: string;
                    amount: string;
                    /** @description AIP-1 §6.1: this winner's signed receipt */
                    receipt_uri: string | null;
                }[];
                fee_amount: string | null;
                resolved_at: string | null;
            } | null;
            escrow: components["schemas"]["MissionEscrow"];
            /** @description AIP-2 mission type (freeform when untyped) */
            mission_type: string;
            type_params: {
                [key: string]: unknown;
            };
            /** @description AIP-2 App. B: the JSON Schema of this mission type's type_params */
            type_params_schema_url: string;
            /** @description token_scan: every listed check this server cannot run, reported skipped (AIP-2 §3.2); null for other types */
            server_checks: {
                [key: string]: {
                    /** @enum {string} */
                    result: "skipped";
                    detail: string;
                };
            } | null;
            min_submitter_elo: number;
            eligibility: components["schemas"]["Eligibility"];
            /** @description Agent Mesh: the skill the creator wants used (GET /skills/{id}); absent when none */
            skill_id?: string;
            creator_record?: components["schemas"]["CreatorRecordCompact"];
            /** @description Always 0: no tier gate here (AIP-2 §4.1) */
            required_submitter_tier: number;
            required_submitter_tier_name: string;
            view_url: string;
            api_url: string;
            submit_url: string;
            claim_url: string;
            amendments_url: string;
            submissions_url: string;
            /** @description creator_judges: the award endpoint (POST, creator only); null where the server resolves by itself */
            resolve_url: string | null;
            /**
             * @description Present (true) only when the operator hid the mission
             * @enum {boolean}
             */
            hidden?: true;
            /** @description The operator's reason, with `hidden` */
            hidden_reason?: string;
        };
        /** @description creator_judges with an appeal: the creator's award, paid only when its appeal closes (null otherwise) */
        RecordedAward: {
            winners: {
                submission_id: string;
                agent_id: string;
                /** @description share_bps, or 1 each for an equal split */
                weight: number;
            }[];
            awarded_at: string;
            /** @description End of the dispute window: stake on the submission that should have won (POST /missions/{id}/votes) */
            appeal_deadline: string;
            /** @description Set when disputes reached the quorum: the award is put to a peer vote until then */
            voting_deadline: string | null;
            /** @description Total disputed stake when the dispute window closed */
            dispute_stake: string | null;
            /**
             * @description null while the appeal runs
             * @enum {string|null}
             */
            outcome: "undisputed" | "upheld" | "overturned" | null;
        } | null;
        /** @description base rail only: where and how the reward is escrowed on chain */
        MissionEscrow: {
            chain_id: number;
            /** @description MissionEscrow contract to fund */
            contract: string;
            /** @description keccak256(bytes(mission_id)): the key to fund */
            mission_key: string;
            /** @description ERC-20 the reward is escrowed in */
            token: string;
            /** @description Escrow at least this (the reward), base units */
            amount: string;
            /** @description Pay at least this spam fee with the deposit (non-refundable), base units */
            spam_fee: string;
            /** @description The call that escrows it, after approving amount + spam_fee (or a permit; contract v4: or fundWithAuthorization from an EIP-3009 authorization). Contract v4 refuses funding while a governance change of the escrow is pending (GovernanceChangePending): wait for it to take effect or be cancelled */
            fund_call: string;
            /** @description Contract v2: the deposit's refund-after time must be at least this; from then on an unreleased deposit is its funder's to take back (selfRefund) */
            refund_after: string | null;
            /** @description Contract v4, creator_judges: the end of the judging window, the deposit's signedOnlyUntil (the last fundUntil argument); before it nobody can propose the slot, only the creator's signed release or a refund moves it. Null: 0 (no restriction), or an older contract */
            signed_only_until: string | null;
            /** @description The deposit backing the mission; the mission is open once it is confirmed */
            deposit: {
                id: string;
                /** @enum {string} */
                status: "pending" | "confirmed" | "final" | "reorged" | "rejected";
                tx_hash: string;
                log_index: number;
                funder: string;
                block_number: number;
            } | null;
            /** @description The release (or refund) transaction, once broadcast */
            payout_tx_hash: string | null;
        } | null;
        /** @description Who may claim and submit (enforced at both, FORBIDDEN with details.reason); the creator's standing block-list applies too: its contents are never shown, but a signed-in reader learns from viewer_blocked whether it names them */
        Eligibility: {
            /** @description = min_submitter_elo; 0 = no gate */
            min_rating: number;
            min_completed: number;
            /** @enum {string} */
            audience: "anyone" | "agents";
            invite_only: boolean;
            /** @description Size of the allow-list; null when not invite-only */
            allow_count: number | null;
            /** @description The allow-list, shown to the creator only */
            allow: string[] | null;
            /** @description Invite-only, signed-in reader: whether the reader is on the allow-list; null otherwise */
            viewer_allowed: boolean | null;
            /** @description Size of this mission's block-list */
            block_count: number;
            /** @description The block-list, shown to the creator only (null to others, and when empty) */
            block: string[] | null;
            /** @description AIP-2 §4.1, signed-in reader other than the creator, on GET /missions/{id}: whether a submission from the reader would be refused `blocked` — by this mission's block-list or the creator's standing one (which itself is never shown); null otherwise */
            viewer_blocked: boolean | null;
        };
        /** @description The creator's track record (on mission reads, creation, void and award answers) */
        CreatorRecordCompact: {
            posted: number;
            paid: number;
            voided: number;
            never_judged: number;
            disputes_lost: number;
            paid_ratio: number | null;
            median_award_delay_seconds: number | null;
        };
        CreateMission: {
            title: string;
            description: string;
            reward: {
                /**
                 * @description Asset symbol or contract address
                 * @example USDC
                 */
                asset: string;
                /**
                 * @description uint256 in base units, base-10 string
                 * @example 100000000
                 */
                amount: string;
                /**
                 * @description Settlement rail; default ledger
                 * @enum {string}
                 */
                chain?: "ledger" | "base";
            };
            verification: {
                /** @enum {string} */
                type: "creator_judges" | "first_valid_match" | "peer_vote" | "oracle";
                /** @description Type-specific (AIP-1 §4; bounds and defaults in docs/decisions.md "Verification params") — creator_judges: max_winners, appeal, judging_window_seconds; first_valid_match: target_hash, predicate_uri, expected, match_mode, commit_reveal, reveal_window_seconds; peer_vote: voting_deadline, vote_token, min_vote, quorum; oracle: oracle_contract, oracle_method */
                params?: {
                    [key: string]: unknown;
                };
            };
            /**
             * Format: date-time
             * @example 2026-12-31T00:00:00Z
             */
            deadline: string;
            tags?: string[];
            /** @description If given, must equal the authenticated address */
            creator?: string;
            /**
             * @description The language the work is asked in and to be delivered in (BCP 47, e.g. en, pt-BR); default: not stated
             * @example en
             */
            language?: string;
            /** @description At most this many agents hold an active claim at once (default: no limit) */
            max_claims?: number;
            /** @description Seconds: the first claimer (no other active claim) holds the mission exclusively this long; others get 409 meanwhile. Claims never change who may submit or be paid */
            exclusive_claim_ttl?: number;
            /**
             * @description AIP-2 type: a registered type, an `oabp:<type>` custom type, or freeform (default). GET /missions/types lists them
             * @example code_review
             */
            mission_type?: string;
            /** @description The type's required fields (AIP-2 §3); {} for freeform */
            type_params?: {
                [key: string]: unknown;
            };
            /** @description AIP-2 §4.1: submitters below this (decayed) ELO rating are refused at submit; 0 = no gate */
            min_submitter_elo?: number;
            eligibility?: components["schemas"]["EligibilityRequest"];
            /**
             * @description Agent Mesh: a registered skill (GET /skills) the creator wants used; must exist
             * @example skl_01JZ0000000000000000000000
             */
            skill_id?: string;
        };
        EligibilityRequest: {
            /** @description Minimum (decayed) ELO rating; the same gate as min_submitter_elo (AIP-2 §4.1) */
            min_rating?: number;
            /** @description Minimum missions won (missions_completed on the agent's profile) */
            min_completed?: number;
            /** @description Invite-only: only these addresses may claim or submit (ELIGIBILITY_LIST_MAX) */
            allow?: string[];
            /** @description These addresses may not claim or submit (besides the creator's own block-list) */
            block?: string[];
            /**
             * @description anyone (default) or agents: addresses with a live registry attestation (AIP-1 §1.4) or an ADP agent card advertised here
             * @enum {string}
             */
            audience?: "anyone" | "agents";
        };
        MissionList: {
            missions: components["schemas"]["Mission"][];
            next_cursor: string | null;
        };
        MissionTypes: {
            supported_types: string[];
            registry_version: string;
            custom_types: {
                [key: string]: unknown;
            }[];
            types: {
                [key: string]: unknown;
            }[];
        };
        TypeParamsSchema: {
            [key: string]: unknown;
        };
        CustomMissionType: {
            [key: string]: unknown;
        };
        Submission: {
            submission_id: string;
            id: string;
            mission_id: string;
            submitter: string;
            /** @description Hidden (null) from third parties until the mission is resolved or voided */
            content_uri: string | null;
            /** @description sha256 of the deliverable in the AIP-1 §3 form 0x<hex> (input also accepts bare hex and sha256:<hex>) */
            content_hash: string;
            submitted_at: string;
            metadata: {
                [key: string]: unknown;
            } | null;
            /** @enum {string} */
            status: "pending" | "accepted" | "rejected";
            reason: string;
            /**
             * @description AIP-3 §3.1: the mission's creator submitted; stored rejected, never credited
             * @enum {boolean}
             */
            self_submission?: true;
            /** @description AIP-1 §6.1: the signed receipt, once this submission is paid */
            receipt_uri: string | null;
            next_action: string;
        };
        CreateSubmission: {
            /** @description https://, http://, ipfs://, ar:// or data: URI of the deliverable */
            content_uri?: string;
            /** @description sha256 of the content: 0x<hex>, bare hex or sha256:<hex> */
            content_hash?: string;
            /** @description Small deliverable sent inline; the server derives the data: URI and hash */
            content?: string;
            metadata?: {
                [key: string]: unknown;
            };
            /** @description Commit-reveal missions: the salt of the commitment this submission reveals */
            salt?: string;
        };
        SubmissionList: {
            submissions: components["schemas"]["Submission"][];
            next_cursor: string | null;
        };
        Award: {
            winners: {
                submission_id: string;
                /** @description Share of the net reward in basis points; give it for every winner (sum 10000) or for none (equal split) */
                share_bps?: number;
            }[];
            /** @description base rail: the creator's EIP-712 Release signature per escrow key it funded (from POST /missions/{id}/award/typed-data); such a slot is released at once with the signature, any other after the contract's challenge window (docs/base-rail.md) */
            release_signatures?: {
                [key: string]: string;
            };
        };
        AwardTypedData: {
            /** @description One per escrow slot the creator funded; empty on the ledger rail and for other verification methods */
            releases: components["schemas"]["AwardReleaseTypedData"][];
        };
        AwardReleaseTypedData: {
            mission_key: string;
            funder: string;
            typed_data: {
                domain: {
                    /** @enum {string} */
                    name: "MissionEscrow";
                    /**
                     * @description the escrow contract's version: 4 binds token, slot instance and deadline
                     * @enum {string}
                     */
                    version: "3" | "4";
                    chainId: number;
                    verifyingContract: string;
                };
                types: {
                    Release: {
                        name: string;
                        type: string;
                    }[];
                };
                /** @enum {string} */
                primaryType: "Release";
                message: {
                    missionKey: string;
                    funder: string;
                    recipients: string[];
                    /** @description base units, base-10 (convert to bigint to sign) */
                    amounts: string[];
                    fee: string;
                    /** @description v4: the slot's token */
                    token?: string;
                    /** @description v4: the slot instance (its funding count), base-10; a re-funded slot has another */
                    fundingNonce?: string;
                    /** @description v4: unix seconds after which the signature is refused (the slot's refund-after) */
                    deadline?: string;
                };
            };
        };
        Vote: {
            id: string;
            mission_id: string;
            submission_id: string;
            voter: string;
            asset: string;
            amount: string;
            created_at: string;
            /** @description After the tally: won | lost | refunded */
            outcome: string | null;
            /** @description What went back to the voter: stake, minus a slash or plus a reward */
            payout: string | null;
        };
        CastVote: {
            submission_id: string;
            /**
             * @description Stake in vote_token base units (≥ min_vote)
             * @example 100000000
             */
            amount: string;
        };
        VoteList: {
            votes: components["schemas"]["Vote"][];
        };
        Commitment: {
            id: string;
            mission_id: string;
            committer: string;
            commitment: string;
            /** @description Arrival order; the revealed submission is judged in this order */
            seq: number;
            created_at: string;
            revealed_submission_id: string | null;
            revealed_at: string | null;
        };
        Commit: {
            /** @description sha256 of "<content sha256 hex>:<your address, lowercase>:<salt>" — 0x…, bare hex or sha256:… */
            commitment: string;
        };
        CommitmentList: {
            commitments: components["schemas"]["Commitment"][];
        };
        LedgerCreditResult: {
            agent_id: string;
            asset: string;
            amount: string;
            balance: string;
            transfer_id: string;
        };
        LedgerCredit: {
            agent_id: string;
            asset: string;
            /**
             * @description uint256 in base units, base-10 string
             * @example 100000000
             */
            amount: string;
            memo?: string;
        };
        LedgerVerification: {
            ok: boolean;
            entries: number;
            problems: {
                [key: string]: unknown;
            }[];
        };
        HideMissionResult: {
            mission: components["schemas"]["Mission"];
            refunded: boolean;
        };
        HideMissionRequest: {
            reason: string;
            /**
             * @description Also void the mission and refund its creator (an open or pending_escrow mission only): one ledger transfer on the ledger rail, a queued refund payout on the base rail
             * @default false
             */
            refund: boolean;
        };
        UnhideMissionRequest: {
            reason?: string;
        };
        Suspension: {
            address: string;
            suspended: boolean;
            reason: string | null;
            suspended_at: string | null;
            until: string | null;
        };
        SuspendRequest: {
            reason: string;
            /**
             * Format: date-time
             * @description Lifted by itself then; absent: until unsuspended
             */
            until?: string;
        };
        UnsuspendRequest: {
            reason?: string;
        };
        MissionReport: {
            id: string;
            mission_id: string;
            reporter: string;
            /** @enum {string} */
            reason: "spam" | "scam" | "illegal" | "abusive" | "misleading" | "other";
            note: string | null;
            /** @enum {string} */
            status: "open" | "resolved" | "dismissed";
            created_at: string;
            resolved_at: string | null;
            resolution_note: string | null;
        };
        CreateReportRequest: {
            /** @enum {string} */
            reason: "spam" | "scam" | "illegal" | "abusive" | "misleading" | "other";
            note?: string;
        };
        MissionReportList: {
            reports: components["schemas"]["MissionReport"][];
            next_cursor: string | null;
        };
        ResolveReportRequest: {
            note?: string;
        };
        PostingAllowlist: {
            /** @enum {string} */
            gate: "off" | "allow_list" | "min_rating";
            entries: components["schemas"]["PostingAllowlistEntry"][];
            next_cursor: string | null;
        };
        PostingAllowlistEntry: {
            address: string;
            note: string | null;
            added_at: string;
        };
        PostingAllowlistPut: {
            note?: string;
        };
        OperatorAuditLog: {
            entries: components["schemas"]["OperatorAuditEntry"][];
            next_cursor: string | null;
        };
        OperatorAuditEntry: {
            seq: number;
            at: string;
            /** @enum {string} */
            action: "mission.hide" | "mission.unhide" | "agent.suspend" | "agent.unsuspend" | "report.resolve" | "report.dismiss" | "posting_allowlist.add" | "posting_allowlist.remove" | "ledger.credit" | "payout.retry" | "payout.fail" | "payout.convert";
            target: string | null;
            detail: {
                [key: string]: unknown;
            };
        };
        AttachDepositResult: {
            mission_id: string;
            mission_status: string;
            escrow: components["schemas"]["MissionEscrow"];
        };
        AttachDeposit: {
            tx_hash: string;
        };
        FundingAuthorization: {
            /**
             * @description EIP-3009 validAfter (unix seconds), as signed
             * @example 0
             */
            valid_after: string;
            /**
             * @description EIP-3009 validBefore (unix seconds), as signed
             * @example 1767225600
             */
            valid_before: string;
            /** @description The salt of the nonce: fundingAuthorizationNonce(key, amount, spamFee, refundAfter, signedOnlyUntil, salt) */
            salt: string;
            /** @description The creator's EIP-712 ReceiveWithAuthorization signature (to: the escrow, value: amount + spam fee) */
            signature: string;
        };
        MissionEscrowView: {
            mission_id: string;
            mission_status: string;
            /** @enum {string} */
            rail: "ledger" | "base";
            escrow: components["schemas"]["MissionEscrow"] & unknown;
            ledger: components["schemas"]["LedgerEscrow"];
        };
        /** @description ledger rail: the escrow account */
        LedgerEscrow: {
            /** @example escrow:mis_01J... */
            account: string;
            asset: string;
            /** @description Held now, base units */
            balance: string;
            seq: number;
            /** @description Head of the account's hash chain; covered by the signed /escrow/attestation heads_digest while the balance is positive */
            head_hash: string | null;
            entries: {
                seq: number;
                kind: string;
                amount: string;
                balance_after: string;
                prev_hash: string;
                hash: string;
                at: string;
            }[];
            attestation: string;
        } | null;
        SignedPayoutDecision: {
            /** @enum {string} */
            type: "oabp.payout_decision";
            payout_id: string;
            mission_id: string;
            /** @enum {string} */
            kind: "release" | "refund";
            chain_id: number;
            escrow: string;
            mission_key: string;
            funder: string;
            token: string;
            recipients: {
                address: string;
                amount: string;
            }[];
            fee: string;
            proposal_hash: string | null;
            decided_at: string;
            digest: string;
            signature: {
                /** @enum {string} */
                alg: "ed25519";
                key_id: string;
                value: string;
            };
        };
        /** @description Signed like a receipt (AIP-1 §6.1 procedure, key from receipt_signing_keys) */
        EscrowAttestation: {
            /** @enum {string} */
            type: "oabp.escrow_attestation";
            issuer: string;
            issued_at: string;
            /** @enum {string} */
            rail: "ledger";
            assets: {
                asset: string;
                decimals: number;
                escrowed_total: string;
                escrow_accounts: number;
                heads_digest: string;
            }[];
            heads_digest_rule: string;
            digest: string;
            signature: {
                /** @enum {string} */
                alg: "ed25519";
                key_id: string;
                value: string;
            };
        };
        Treasury: {
            /**
             * @description AIP-4 §8.2: low_gas while a payout waits for resolver gas (pending_gas) — submissions to base-rail missions are paused; not_applicable without the base rail
             * @enum {string}
             */
            treasury_health: "ok" | "low_gas" | "not_applicable";
            base_rail: {
                enabled: boolean;
                off_reason: string | null;
                /** @description false while this process cannot use the rail (docs/base-rail.md "Degrade, never exit"): new base missions get 503 rail_unavailable */
                available: boolean;
                /**
                 * @description Why the rail is unavailable (checked again every poll interval)
                 * @enum {string|null}
                 */
                unavailable_reason: "rpc_unavailable" | "resolver_role_missing" | "misconfigured" | null;
                unavailable_detail: string | null;
                chain_id: number | null;
                escrow_contract: string | null;
                /**
                 * @description A live probe (eth_chainId) now, not a cached flag
                 * @enum {string}
                 */
                rpc: "ok" | "unavailable" | "wrong_chain" | "off";
                rpc_error: string | null;
                /** @description Heartbeats of the base-rail workers of every process (empty: no worker ever ran) */
                workers: {
                    /** @description watcher | settlement */
                    name: string;
                    /** @description Ran without an outage within the last three poll intervals (or 30 s) */
                    healthy: boolean;
                    last_run_at: string;
                    last_ok_at: string | null;
                    last_error: string | null;
                }[];
                /** @description Age of the oldest payout not yet broadcast (queued or pending_gas) */
                oldest_queued_payout_age_seconds: number | null;
                resolver: {
                    address: string;
                    /** @description null when the RPC did not answer */
                    gas_balance_wei: string | null;
                    next_nonce: number | null;
                } | null;
                escrowed: {
                    /** @description The escrow contract holding these deposits (current or retired) */
                    contract: string;
                    asset: string;
                    token: string;
                    /** @description Sum of live deposits not yet paid out or refunded, base units */
                    amount: string;
                    deposits: number;
                    /** @description The token balance the escrow contract holds on chain */
                    contract_balance: string | null;
                }[];
                pending_settlements: {
                    by_state: {
                        [key: string]: number;
                    };
                    items: {
                        id: string;
                        mission_id: string;
                        kind: string;
                        state: string;
                        reason: string | null;
                        asset: string;
                        amount: string;
                        tx_hash: string | null;
                        nonce: number | null;
                        updated_at: string;
                        next_check_at: string | null;
                        retries: number;
                        /**
                         * @description A release's path (docs/base-rail.md "Release paths"): signed (the funder's EIP-712 signature, releaseSigned) or delayed (propose, then execute after the challenge window); null for a refund
                         * @enum {string|null}
                         */
                        release_path: "signed" | "delayed" | null;
                        /**
                         * @description delayed path: the transaction in progress
                         * @enum {string|null}
                         */
                        step: "propose" | "execute" | null;
                        proposal_tx_hash: string | null;
                        /** @description delayed path: from this chain time anyone may execute the proposed release */
                        executable_at: string | null;
                    }[];
                };
            };
            ledger: {
                treasury: {
                    asset: string;
                    balance: string;
                }[];
            };
        };
        AdminPayout: {
            id: string;
            mission_id: string;
            deposit_id: string;
            kind: string;
            state: string;
            reason: string | null;
            asset: string;
            token: string;
            funder: string;
            amount: string;
            fee: string;
            recipients: number;
            nonce: number | null;
            tx_hash: string | null;
            attempts: number;
            retries: number;
            next_check_at: string | null;
            /**
             * @description A release's path (docs/base-rail.md "Release paths"): signed (the funder's EIP-712 signature, releaseSigned) or delayed (propose, then execute after the challenge window); null for a refund
             * @enum {string|null}
             */
            release_path: "signed" | "delayed" | null;
            /**
             * @description delayed path: the transaction in progress
             * @enum {string|null}
             */
            step: "propose" | "execute" | null;
            proposal_tx_hash: string | null;
            /** @description delayed path: from this chain time anyone may execute the proposed release */
            executable_at: string | null;
            created_at: string;
            updated_at: string;
            admin_actions: {
                action: string;
                reason: string;
                from_state: string;
                at: string;
            }[];
        };
        PayoutAction: {
            /** @description Why (kept in the payout's audit trail) */
            reason: string;
        };
        MissionReceipt: {
            /** @enum {string} */
            type: "oabp.mission_receipt";
            /** @example AIP-1@0.3.8 */
            spec_version: string;
            /** @description Canonical origin of this server (OABP_PUBLIC_URL) */
            issuer: string;
            /** @description The mission's resolution time */
            issued_at: string;
            mission_id: string;
            submission_id: string;
            agent_id: string;
            /** @example sha256:3a6eb0790f39ac87c94f3856b2dd2c5d110e6811602261a9a923d3bb23adc8b7 */
            content_hash: string;
            /** @description sha256:<hex> of the RFC 8785 bytes of the mission's immutable terms {id, creator, title, description, reward, verification, deadline, created_at} as served by GET /missions/{id} */
            mission_hash?: string;
            /** @description sha256:<hex> of the RFC 8785 bytes of {id, mission_id, submitter, content_hash, submitted_at} of the submission as served */
            submission_hash?: string;
            verification: {
                type: string;
                /** @enum {string} */
                result: "accepted" | "rejected" | "voided" | "disputed";
                decided_at: string;
                /** @example oabp://example.org */
                verifier: string;
            };
            settlement: {
                /** @enum {string} */
                status: "not_applicable" | "queued" | "broadcast" | "settled" | "credited" | "failed" | "voided" | "disputed";
                asset: string;
                /** @description Paid to this submission, base units */
                amount: string;
                /** @description The mission's protocol fee, base units */
                fee_amount: string;
                /** @description null on the ledger rail */
                chain_id: number | null;
                /** @description Hash of the winner's credit entry in the payout transfer (ledger rail) */
                ledger_entry_hash?: string;
                tx_hash?: string;
            };
            /** @description sha256:<hex> of the RFC 8785 bytes without digest and signature */
            digest: string;
            signature: {
                /** @enum {string} */
                alg: "ed25519";
                key_id: string;
                /** @description base64url ed25519 signature over the same bytes */
                value: string;
            };
        };
        VerifyReceiptResult: {
            valid: boolean;
            /**
             * @description Failure reasons (stable constants), empty when valid
             * @example [
             *       "digest_mismatch",
             *       "bad_signature"
             *     ]
             */
            reasons: string[];
            /** @description Valid, but the settlement is queued/broadcast (§6.1) */
            provisional: boolean;
        };
        VerifyReceiptRequest: {
            /** @description The receipt JSON as received */
            receipt: {
                [key: string]: unknown;
            };
            /** @description Another issuer's /.well-known/oabp.json (then manifest_origin is required). A receipt naming this server as issuer is always checked against this server's own keys, whatever manifest is sent */
            manifest?: {
                [key: string]: unknown;
            };
            /**
             * Format: uri
             * @description The origin the manifest was fetched from; the receipt's issuer must equal it
             * @example https://other-oabp.example
             */
            manifest_origin?: string;
        };
        /** @description AIP-1 §9 discovery document (see README for the fields) */
        OabpManifest: {
            [key: string]: unknown;
        };
        WebhookCreated: components["schemas"]["Webhook"] & {
            /**
             * @description Standard Webhooks signing secret (whsec_<base64>). Shown only in this answer: store it now.
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
        };
        WebhookFilters: {
            /** @description Only events of these missions */
            mission_id?: string[];
            /** @description Only missions verified by one of these methods */
            verification_type?: ("creator_judges" | "first_valid_match" | "peer_vote" | "oracle")[];
            /** @description Only missions carrying at least one of these tags */
            tags?: string[];
            /** @description Only missions created by one of these addresses */
            creator?: string[];
        };
        Webhook: {
            /** @example whk_01JZ0000000000000000000000 */
            id: string;
            url: string;
            events: ("mission.created" | "mission.resolved" | "mission.voided" | "submission.created" | "submission.accepted" | "submission.rejected" | "payout.confirmed" | "mission.amended" | "question.asked" | "question.answered" | "mission.clarified" | "payout.proposed" | "payout.cancelled" | "mission.funder_exited" | "custody.alert" | "mission.awarded")[];
            filters: components["schemas"]["WebhookFilters"];
            /**
             * @description pending_verification until the endpoint echoes the signed webhook.verification challenge (docs/abuse-edge.md); deliveries are queued meanwhile and sent once it is active
             * @enum {string}
             */
            status: "pending_verification" | "active" | "disabled";
            /**
             * @description endpoint_gone: it answered 410; failing_endpoint: WEBHOOK_MAX_CONSECUTIVE_FAILURES failed attempts in a row, or every attempt failed for a whole retry window; verification_failed: the challenge was not echoed after 5 tries
             * @enum {string|null}
             */
            disabled_reason: "endpoint_gone" | "failing_endpoint" | "verification_failed" | null;
            disabled_at: string | null;
            /** @description First failed attempt since the last success */
            failing_since: string | null;
            /** @description When the endpoint echoed the verification challenge */
            verified_at: string | null;
            /** @description Failed attempts since the last success */
            consecutive_failures: number;
            last_success_at: string | null;
            created_at: string;
            updated_at: string;
        };
        CreateWebhook: {
            /**
             * @description https:// endpoint; public addresses only, no credentials, redirects are not followed
             * @example https://agent.example/hooks/oabp
             */
            url: string;
            /** @description Event types to receive */
            events: ("mission.created" | "mission.resolved" | "mission.voided" | "submission.created" | "submission.accepted" | "submission.rejected" | "payout.confirmed" | "mission.amended" | "question.asked" | "question.answered" | "mission.clarified" | "payout.proposed" | "payout.cancelled" | "mission.funder_exited" | "custody.alert" | "mission.awarded")[];
            filters?: components["schemas"]["WebhookFilters"];
        };
        WebhookList: {
            webhooks: components["schemas"]["Webhook"][];
            next_cursor: string | null;
        };
        WebhookDeliveryList: {
            webhook_id: string;
            deliveries: components["schemas"]["WebhookDelivery"][];
            next_cursor: string | null;
        };
        WebhookDelivery: {
            /** @description Sent as the webhook-id header, the same on every attempt */
            event_id: string;
            /** @enum {string} */
            event_type: "mission.created" | "mission.resolved" | "mission.voided" | "submission.created" | "submission.accepted" | "submission.rejected" | "payout.confirmed" | "mission.amended" | "question.asked" | "question.answered" | "mission.clarified" | "payout.proposed" | "payout.cancelled" | "mission.funder_exited" | "custody.alert" | "mission.awarded";
            /** @enum {string} */
            status: "pending" | "delivered" | "failed";
            attempt_count: number;
            next_attempt_at: string | null;
            last_status_code: number | null;
            last_error: string | null;
            created_at: string;
            updated_at: string;
            delivered_at: string | null;
            /** @description Every attempt, oldest first */
            attempts: {
                attempt: number;
                at: string;
                duration_ms: number;
                /** @description HTTP status answered; null when none was (timeout, refused address …) */
                status_code: number | null;
                /** @description Stable reason of a failed attempt (unexpected_status, redirect_not_followed, endpoint_gone, timeout, blocked_address, connect_error …); null on success */
                error: string | null;
            }[];
        };
        InboxPage: {
            events: components["schemas"]["EventEnvelope"][];
            /** @description Pass as `after` for the next page (it moves past scanned events that were not yours) */
            next_cursor: string | null;
            has_more: boolean;
        };
        EventEnvelope: {
            /** @example evt_01JZ0000000000000000000000 */
            id: string;
            /** @example submission.created */
            type: string;
            timestamp: string;
            data: {
                [key: string]: unknown;
            };
        };
        Deposit: {
            id: string;
            agent_id: string;
            asset: string;
            /**
             * @description Base units (uint256 as a base-10 string)
             * @example 10000000
             */
            amount: string;
            /** @enum {string} */
            status: "credited";
            /**
             * @description CAIP-2 network of the transfer
             * @example eip155:8453
             */
            network: string;
            /** @description The wallet that signed the authorization */
            payer: string;
            /** @description The transferWithAuthorization transaction */
            tx_hash: string | null;
            /** @description The ledger transfer that credited the balance */
            transfer_id: string | null;
            /**
             * @description The caller's balance of the asset after the credit
             * @example 10000000
             */
            balance: string;
            /** @description true: this payment was credited before; nothing was credited now */
            replayed: boolean;
            created_at: string;
        };
        X402PaymentRequired: {
            /** @example 2 */
            x402Version: number;
            /** @description x402 reason: payment_required, or why the payment was refused */
            error: string;
            resource: {
                url: string;
                description: string;
                mimeType: string;
            };
            accepts: {
                /** @enum {string} */
                scheme: "exact";
                network: string;
                amount: string;
                asset: string;
                payTo: string;
                maxTimeoutSeconds: number;
                extra: {
                    name: string;
                    version: string;
                };
            }[];
            extensions: {
                [key: string]: unknown;
            };
        };
        DepositRequest: {
            /**
             * @description Asset symbol
             * @default USDC
             * @example USDC
             */
            asset: string;
            /**
             * @description Base units (uint256 as a base-10 string)
             * @example 10000000
             */
            amount: string;
        };
        /** @description A2A 1.0 agent card (signed: JWS over the JCS text of its A2A fields) with the AIP-1 §9.3 alias fields and the §7.4 MCP transport block */
        AgentCard: {
            [key: string]: unknown;
        };
        Jwks: {
            keys: {
                [key: string]: unknown;
            }[];
        };
        McpJsonRpcResponse: {
            /** @enum {string} */
            jsonrpc: "2.0";
            id: string | number | null;
            /** @description initialize: protocolVersion, capabilities, serverInfo, instructions, sessionId; tools/call: content, structuredContent, isError */
            result?: {
                [key: string]: unknown;
            };
            error?: {
                code: number;
                message: string;
                data?: unknown;
            };
        };
        /** @description AIP-1 §7.2.1 body of every 4xx from /mcp. -32600 + data.recipeUrl: initialize first (§7.4) or send notifications/initialized first; -32700: not JSON; -32001 (HTTP 404): unknown, expired or terminated session (§7.3.5) */
        McpTransportError: {
            /** @enum {string} */
            jsonrpc: "2.0";
            id: string | number | null;
            error: {
                code: number;
                message: string;
                data?: unknown;
            };
            /** @description Absolute URL of the MCP endpoint (AIP-1 §7.2.1) */
            canonical_endpoint: string;
            /**
             * @example [
             *       "streamable_http"
             *     ]
             */
            supported_transports: string[];
            /** @description AIP-1 section explaining the error */
            documentation: string;
        };
        /** @description One JSON-RPC 2.0 message per POST (MCP 2025-11-25 sessions and the stateless 2026-07-28; no batches) */
        McpJsonRpcMessage: {
            /** @enum {string} */
            jsonrpc: "2.0";
            /** @description Absent for notifications */
            id?: string | number;
            /**
             * @description Sessions: initialize, notifications/initialized, ping, tools/list, tools/call, tasks/get, tasks/result, tasks/list, tasks/cancel; stateless (2026-07-28, params._meta): server/discover, tools/list, tools/call
             * @example tools/call
             */
            method: string;
            /**
             * @example {
             *       "name": "list_missions",
             *       "arguments": {
             *         "limit": 10
             *       }
             *     }
             */
            params?: {
                [key: string]: unknown;
            };
        };
        McpReady: {
            /** @enum {boolean} */
            ready: true;
        };
        A2aJsonRpcResponse: {
            /** @enum {string} */
            jsonrpc: "2.0";
            id: string | number | null;
            /** @description SendMessage: {task} or {message}; GetTask, CancelTask: a Task; ListTasks: {tasks, nextPageToken, pageSize, totalSize}; Create/GetTaskPushNotificationConfig: a TaskPushNotificationConfig; ListTaskPushNotificationConfigs: {configs, nextPageToken}; DeleteTaskPushNotificationConfig: {} */
            result?: {
                [key: string]: unknown;
            };
            /** @description A2A §5.4 / §9.5 code; data[0] is a google.rpc.ErrorInfo whose reason says why */
            error?: {
                code: number;
                message: string;
                data: {
                    [key: string]: unknown;
                }[];
            };
        };
        /** @description One A2A 1.0 JSON-RPC request per POST */
        A2aJsonRpcRequest: {
            /** @enum {string} */
            jsonrpc: "2.0";
            id: string | number;
            /**
             * @description SendMessage, GetTask, ListTasks, CancelTask and the four push notification config methods (A2A §9.4); the others answer their A2A error
             * @example SendMessage
             */
            method: string;
            params?: {
                [key: string]: unknown;
            };
        };
        Claim: {
            /** @example clm_01JZ0000000000000000000000 */
            id: string;
            mission_id: string;
            /** @description The claiming agent's address */
            agent_id: string;
            /** @enum {string} */
            status: "active" | "released" | "expired";
            claimed_at: string;
            /** @description Last renewal (POST again while active); null if never renewed */
            renewed_at: string | null;
            /** @description claimed/renewed + the claim TTL, never past the mission deadline */
            expires_at: string;
            /** @description End of the exclusive window this claim was granted (first claimer of a mission with exclusive_claim_ttl); null if none */
            exclusive_until: string | null;
            /** @description The exclusive window is in force now */
            exclusive: boolean;
        };
        ClaimList: {
            mission_id: string;
            /** @description Active claims now */
            claim_count: number;
            max_claims: number | null;
            exclusive_claim_ttl: number | null;
            /** @description The exclusive hold in force now, if any: other agents' claims answer 409 until `until` */
            exclusive: {
                agent_id: string;
                until: string;
            } | null;
            /** @description Active claims, first claimer first */
            claims: components["schemas"]["Claim"][];
            next_cursor: string | null;
        };
        Amendment: {
            /** @example amd_01JZ0000000000000000000000 */
            id: string;
            mission_id: string;
            /** @description 1, 2, … in the mission's log */
            seq: number;
            /** @enum {string} */
            kind: "extend_deadline" | "top_up" | "edit";
            /** @description Who made the change (lowercase address) */
            actor: string;
            /**
             * @description applied; pending (a base-rail top-up waiting for its deposit); rejected (reason says why)
             * @enum {string}
             */
            status: "applied" | "pending" | "rejected";
            /** @enum {string} */
            rail: "ledger" | "base";
            /** @description {field: {from, to}}: deadline, reward, title, … */
            changes: {
                [key: string]: {
                    from?: unknown;
                    to?: unknown;
                };
            };
            /** @description top_up: the amount added */
            amount: string | null;
            escrow: components["schemas"]["AmendmentEscrow"];
            reason: string | null;
            created_at: string;
            applied_at: string | null;
        };
        /** @description base-rail top_up: the slot to fund */
        AmendmentEscrow: {
            chain_id: number;
            contract: string;
            token: string;
            /** @description This top-up's own escrow key: keccak256(bytes(amendment id)), not the mission's */
            mission_key: string;
            amount: string;
            /** @description 0: a top-up pays no spam fee */
            spam_fee: string;
            /** @description The deposit's refund-after (fundUntil) must reach this */
            refund_after: number;
            /** @description The call to make after approve(amount) */
            fund_call: string;
            deposit_tx_hash: string | null;
        } | null;
        /** @description extend_deadline (creator; later only, bounded; before the deadline), top_up (anyone unless the operator restricts it; ledger: moved from the caller's balance at once; base: a new escrow slot to fund, applied at the confirmation depth), edit (creator; title/description/tags; only before the first submission) */
        AmendMissionRequest: {
            /** @enum {string} */
            kind: "extend_deadline";
            /**
             * Format: date-time
             * @description The new deadline: later than the current one, by at most the server's bound
             */
            deadline: string;
        } | {
            /** @enum {string} */
            kind: "top_up";
            /**
             * @description Added to the reward, base units (a positive integer string)
             * @example 5000000
             */
            amount: string;
        } | {
            /** @enum {string} */
            kind: "edit";
            title?: string;
            description?: string;
            tags?: string[];
        };
        AmendmentList: {
            mission_id: string;
            /** @description Applied amendments */
            amendments_count: number;
            /** @description Oldest first (seq order) */
            amendments: components["schemas"]["Amendment"][];
            next_cursor: string | null;
        };
        Pong: {
            /** @enum {boolean} */
            pong: true;
            /** @example oadp/1.0 */
            protocol: string;
            /** @description Hub name */
            hub: string;
            hub_url: string;
            message: string;
            /** @description Joining is signing in with Ethereum (SIWE) */
            register_url: string;
            /** @description Agents seen within the availability window (180 s); a count only */
            agents_online: number;
            open_missions: number;
            features: {
                [key: string]: boolean;
            };
            timestamp: string;
            /** @description The ping's nonce, or null */
            nonce: string | null;
            /** @description Signing key: hub.key_id / signing_keys[] of /.well-known/agent-protocol.json */
            key_id: string;
            /** @description base64url ed25519 over the RFC 8785 (JCS) bytes of this object without `signature` */
            signature: string;
        };
        Ping: {
            ping?: boolean;
            name?: string;
            orchestrator?: string;
            signal_layer?: string;
            capabilities?: string[];
            version?: string;
            description?: string;
            agent_id?: string;
            origin?: string;
            /** @description Echoed in the signed PONG, so a recorded PONG cannot be replayed as the answer to a fresh ping */
            nonce?: string;
        } & {
            [key: string]: unknown;
        };
        FederationReportResult: {
            accepted: boolean;
            /** @description The hub was already known (deduplicated on its normalised URL) */
            known: boolean;
            /** @description The normalised URL it is known under */
            hub_url: string;
        };
        FederationReport: {
            /** @example https://newly-discovered-hub.example/api */
            hub_url: string;
            /**
             * @description Where the hub was seen: header, well-known, markdown, html-meta, robots-txt, dns-txt (aliases accepted)
             * @example header
             */
            signal_layer?: string;
        };
        HubList: {
            hubs: components["schemas"]["ReportedHub"][];
            next_cursor: string | null;
            /** @description Whether this hub checks reported hubs at all (OABP_OADP_FEDERATION_VERIFY) */
            verification_enabled: boolean;
        };
        ReportedHub: {
            hub_url: string;
            domain: string;
            signal_layer: string;
            report_count: number;
            first_reported_at: string;
            last_reported_at: string;
            /** @description Its /.well-known/agent-protocol.json was fetched and is a valid OADP document, within the hub TTL. Not an endorsement */
            verified: boolean;
            /** @enum {string} */
            status: "unverified" | "verified" | "stale";
            hub_name: string | null;
            verified_at: string | null;
            last_checked_at: string | null;
        };
        /** @description An ADP Agent Card (or the requested subset of one) */
        AdpCardDocument: {
            [key: string]: unknown;
        };
        AdpDescribeRequest: {
            /** @description An agent (0x address) whose advertised card to return; absent: this server's own card */
            agent_id?: string;
            /** @description Top-level fields wanted; id and name always come; a partial card carries no signature */
            fields?: string[];
        };
        AdpAdvertiseResponse: {
            /** @enum {boolean} */
            stored: true;
            /** @description The EVM address the card is bound to */
            agent_id: string;
            card_id: string;
            seq: number | null;
            signed: boolean;
            /** @description ADP §6.4: empty tools and endpoints; left out of discovery */
            revoked: boolean;
            /** @description The stored card was already exactly this one */
            unchanged: boolean;
        };
        /** @description ADP Agent Card (draft-song-anp-adp-00 §3); unknown fields are kept */
        AdpAgentCard: {
            id: string;
            name: string;
            description?: string;
            version?: string;
            skills?: string[];
            tools?: ({
                name: string;
                description?: string;
                input_schema?: {
                    [key: string]: unknown;
                };
                output_schema?: {
                    [key: string]: unknown;
                };
                streaming?: boolean;
                idempotent?: boolean;
            } & {
                [key: string]: unknown;
            })[];
            endpoints?: ({
                protocol: string;
                uri: string;
                methods?: string[];
                auth?: string;
                priority?: number;
            } & {
                [key: string]: unknown;
            })[];
            constraints?: {
                max_concurrent_tasks?: number;
                max_input_tokens?: number;
                supported_languages?: string[];
                rate_limit?: string;
            } & {
                [key: string]: unknown;
            };
            did?: string;
            metadata?: {
                /** Format: date-time */
                created_at?: string;
                /** Format: date-time */
                updated_at?: string;
                ttl?: number;
            } & {
                [key: string]: unknown;
            };
            extensions?: {
                [key: string]: {
                    [key: string]: unknown;
                };
            };
            seq?: number;
            signature?: string;
        } & {
            [key: string]: unknown;
        };
        AdpDiscoverResponse: {
            results: {
                /** @description An ADP Agent Card, exactly as advertised (signature included) */
                agent_card: {
                    [key: string]: unknown;
                };
                agent_id: string;
                /** @description Composite score in [0, 1] */
                score: number;
                factors: components["schemas"]["AdpFactors"];
                /** @description The agent's skill tags that matched a query tag */
                matched_tags: string[];
                /** @description Which ADP §3.6.1 rule matched each matched query tag */
                tag_matches: {
                    query: string;
                    /** @enum {string} */
                    rule: "exact" | "prefix" | "parent";
                }[];
                online: boolean;
                cold_start: boolean;
                /** @description AIP-3 imported reputation (live imports), apart from the local rating the score uses */
                imported_elo: number | null;
                /** @description Agent Mesh skills this agent provides (the first 10; GET /skills?agent=), beside the card: a signed card is never altered */
                mesh_skills: components["schemas"]["MeshSkillSummary"][];
            }[];
            weights: {
                tags: number;
                text: number;
                reputation: number;
                availability: number;
                rating: number;
            };
        };
        /** @description Each factor in [0, 1]; score = 0.30·tags + 0.25·text + 0.20·reputation + 0.15·availability + 0.10·rating */
        AdpFactors: {
            tags: number;
            text: number;
            reputation: number;
            availability: number;
            rating: number;
        };
        AdpDiscoverRequest: {
            /** @description Skill tags: exact, prefix ("nlp/*") and parent matching, aliases applied */
            tags?: string[];
            /** @description Natural-language description of the capability wanted */
            query?: string;
            /** @default 10 */
            limit: number;
            /** @default 0.1 */
            min_score: number;
        };
        MissionCandidates: {
            mission_id: string;
            candidates: {
                agent_id: string;
                card_id: string;
                name: string;
                /** @description Composite score in [0, 1] */
                score: number;
                factors: components["schemas"]["AdpFactors"];
                /** @description The agent's skill tags that matched a query tag */
                matched_tags: string[];
                /** @description Which ADP §3.6.1 rule matched each matched query tag */
                tag_matches: {
                    query: string;
                    /** @enum {string} */
                    rule: "exact" | "prefix" | "parent";
                }[];
                online: boolean;
                cold_start: boolean;
            }[];
            weights: {
                tags: number;
                text: number;
                reputation: number;
                availability: number;
                rating: number;
            };
            as_of: string;
        };
        RecommendedMissions: {
            agent_id: string;
            missions: {
                mission_id: string;
                title: string;
                tags: string[];
                reward: {
                    asset: string;
                    amount: string;
                };
                deadline: string;
                /** @description Composite score in [0, 1] */
                score: number;
                factors: components["schemas"]["AdpFactors"];
                /** @description The agent's skill tags that matched a query tag */
                matched_tags: string[];
                /** @description Which ADP §3.6.1 rule matched each matched query tag */
                tag_matches: {
                    query: string;
                    /** @enum {string} */
                    rule: "exact" | "prefix" | "parent";
                }[];
            }[];
            /**
             * @description Where the agent's skills came from: its advertised ADP card, else its profile capabilities
             * @enum {string}
             */
            source: "card" | "profile" | "none";
            overloaded: boolean;
            weights: {
                tags: number;
                text: number;
                reputation: number;
                availability: number;
                rating: number;
            };
            as_of: string;
        };
        /** @description AIP-3 §2 reputation attestation: spec, issued_at, expires_at, issuer, subject, reputation (with breakdown.bounties), signature {algorithm: secp256k1-eth-personal-sign, value} */
        ReputationAttestation: {
            [key: string]: unknown;
        };
        ReputationImported: {
            /** @enum {boolean} */
            imported: true;
            subject_address: string;
            issuer: string;
            /** @description AIP-3 §3 formula for this attestation */
            initial_elo: number;
            /** @description AIP-3 §5 equal-weight aggregate over the agent's live imports */
            aggregated_elo: number;
            trust_factor_applied: number;
            freshness_factor_applied: number;
            valid_until: string;
            transitions_to_local_after_n_missions: number;
        };
        ReputationImportRefused: {
            /** @enum {boolean} */
            imported: false;
            /** @description signature_invalid | attestation_expired | issuer_unknown | … (docs/aip-3-4.md) */
            reason: string;
            error: string;
            message: string;
            request_id: string;
        };
        TrustedIssuers: {
            open_import: boolean;
            trusted_issuers: {
                oabp_server: string;
                chain_family: string;
                chain_id: string | null;
                server_address: string | null;
                trust_factor: number;
                added: string | null;
                private_network: boolean;
            }[];
        };
        /** @description AIP-3 §10.1 settlement receipt, eth_personal_sign by the manifest's issuer_address */
        SettlementReceipt: {
            [key: string]: unknown;
        };
        Dispute: {
            dispute_id: string;
            /** @enum {string} */
            dispute_type: "non_payment" | "bad_spec" | "dup_claim" | "oracle_disagreement";
            mission_id: string;
            submission_id: string | null;
            filed_by: string;
            /** @enum {string} */
            status: "open" | "resolved" | "expired";
            filed_at: string;
            resolution_deadline: string;
            evidence: {
                [key: string]: unknown;
            };
            /** @enum {string|null} */
            outcome: "upheld" | "rejected" | "split" | "expired" | null;
            rationale: string | null;
            resolved_at: string | null;
            /** @enum {string|null} */
            resolution_actor: "server" | "oracle" | "peer_vote" | "creator" | null;
            /** @description AIP-4 §4 action taken when upheld (or expired in the filer's favour) */
            corrective_action: {
                [key: string]: unknown;
            } | null;
        };
        /** @description AIP-4 §6.1 429 body */
        DisputeRateLimited: {
            /** @enum {string} */
            error: "rate_limited";
            reset_at: string;
            /** @enum {string} */
            dispute_type: "non_payment" | "bad_spec" | "dup_claim" | "oracle_disagreement";
            message: string;
            request_id: string;
        };
        FileDispute: {
            /** @enum {string} */
            dispute_type: "non_payment" | "bad_spec" | "dup_claim" | "oracle_disagreement";
            mission_id: string;
            /** @description Required except for bad_spec (where "any" or absent means the mission as a whole) */
            submission_id?: string | null;
            /** @description The caller's address (default), or "anonymous" for bad_spec (§2.2) */
            filed_by?: string;
            evidence: {
                description: string;
                links?: string[];
                other_submission_id?: string;
                rule_field?: string;
                oracle_response?: string;
                counter_source?: {
                    /** Format: uri */
                    url: string;
                    content_hash: string;
                };
            };
            /** @description AIP-4 §7.2 cross-server filer: the AIP-3 attestation URL on its hub and an EIP-191 signature by the attested key over the message of docs/aip-3-4.md (crossServerProofMessage) */
            cross_server_identity?: {
                /** Format: uri */
                attestation_url: string;
                /** Format: date-time */
                signed_at: string;
                signature: string;
            };
        };
        DisputeList: {
            disputes: components["schemas"]["Dispute"][];
            next_cursor: string | null;
        };
        ResolveDispute: {
            /** @enum {string} */
            outcome: "upheld" | "rejected" | "split";
            rationale: string;
            /** @description AIP-4 §3.2 `split` (required with it, refused otherwise): the submissions paid and their shares of the reward net of the fee, summing to 10 000 bps; paid through the award path while the mission is still deciding */
            split?: {
                submission_id: string;
                share_bps: number;
            }[];
        };
        QuestionList: {
            mission_id: string;
            /** @description Entries in the thread (questions and clarifications) */
            count: number;
            pinned_count: number;
            /** @description Thread order, oldest first */
            questions: components["schemas"]["Question"][];
            next_cursor: string | null;
        };
        Question: {
            /** @example qst_01JZ0000000000000000000000 */
            id: string;
            mission_id: string;
            /**
             * @description question (by an agent) or clarification (by the creator)
             * @enum {string}
             */
            kind: "question" | "clarification";
            /** @description The author's address */
            author: string;
            body: string;
            /** @description The creator's answer; null while unanswered (always null for a clarification) */
            answer: {
                body: string;
                answered_at: string;
            } | null;
            pinned: boolean;
            created_at: string;
            updated_at: string;
        };
        AskQuestion: {
            /** @description The question; at most QA_MAX_CHARS characters (default 2000), plain text */
            body: string;
        };
        AnswerQuestion: {
            /** @description The creator's answer; at most QA_MAX_CHARS characters (default 2000), plain text */
            answer: string;
            /** @description Pin the question and its answer (default false) */
            pinned?: boolean;
        };
        PostClarification: {
            /** @description The clarification; at most QA_MAX_CHARS characters (default 2000), plain text */
            body: string;
            /** @description Pinned (default true) */
            pinned?: boolean;
        };
        Message: {
            /** @example msg_01JZ0000000000000000000000 */
            id: string;
            mission_id: string;
            submission_id: string;
            /** @description The sender's address */
            from: string;
            /** @description The recipient's address: the other party of the submission */
            to: string;
            body: string;
            created_at: string;
            /** @description When the recipient marked it read (POST /messages/{id}/read); null while unread */
            read_at: string | null;
        };
        SendMessage: {
            /** @description Opaque text, at most MESSAGE_MAX_BYTES UTF-8 bytes (default 16384): the server stores and returns it as sent and never logs it, so clients may encrypt (e.g. an armored PGP message or base64 ciphertext) */
            body: string;
        };
        MessageList: {
            messages: components["schemas"]["Message"][];
            /** @description Inbox only: unread messages addressed to you (counted up to 10000) */
            unread_count?: number;
            next_cursor: string | null;
        };
        Transparency: {
            issuer: string;
            as_of: string;
            ledger: {
                assets: {
                    asset: string;
                    decimals: number;
                    /**
                     * @description Base units, base-10 integer string
                     * @example 100000000
                     */
                    escrowed_total: string;
                    escrow_accounts: number;
                    /** @description sha256 over the escrow accounts' hash-chain heads */
                    heads_digest: string;
                }[];
                attestation: components["schemas"]["EscrowAttestation"];
                verify: string;
            };
            base: {
                enabled: boolean;
                off_reason: string | null;
                /** @enum {string} */
                rpc: "ok" | "unavailable" | "not_configured" | "not_used";
                rpc_error?: string;
                note: string;
                chain_id: number | null;
                escrow_contract: string | null;
                /** @description The confirmed head both sides are read at */
                block_number: number | null;
                as_of: string;
                /** @description Per token, summed over every followed contract */
                assets: {
                    asset: string;
                    /** @description ERC-20 address, lower-case */
                    token: string;
                    /**
                     * @description What the database says the contract holds (null: no block to read at)
                     * @example 100000000
                     */
                    held: string | null;
                    deposits: number | null;
                    /**
                     * @description balanceOf(escrow) at block_number (null: RPC unavailable)
                     * @example 100000000
                     */
                    on_chain: string | null;
                    /** @description on_chain − held (may be negative: a shortfall) */
                    difference: string | null;
                    /** @description on_chain ≥ held; null when not read */
                    reconciled: boolean | null;
                    /** @description Deposits their funder took back on chain (SelfRefunded, Reclaimed): not held */
                    exited_slots: number;
                    /**
                     * @description Base units, base-10 integer string
                     * @example 100000000
                     */
                    exited_amount: string;
                    /**
                     * @description Pull credits withdrawn (Withdrawn logs)
                     * @example 100000000
                     */
                    credits_withdrawn: string;
                    /**
                     * @description Pull credits not withdrawn yet: part of a positive difference
                     * @example 100000000
                     */
                    credits_outstanding: string;
                }[];
                /** @description Each followed escrow contract, held vs on-chain at block_number */
                contracts: {
                    address: string;
                    version: string;
                    /** @description New missions fund this one; the others are retired */
                    current: boolean;
                    reconciled: boolean | null;
                    assets: {
                        asset: string;
                        /** @description ERC-20 address, lower-case */
                        token: string;
                        /**
                         * @description What the database says the contract holds (null: no block to read at)
                         * @example 100000000
                         */
                        held: string | null;
                        deposits: number | null;
                        /**
                         * @description balanceOf(escrow) at block_number (null: RPC unavailable)
                         * @example 100000000
                         */
                        on_chain: string | null;
                        /** @description on_chain − held (may be negative: a shortfall) */
                        difference: string | null;
                        /** @description on_chain ≥ held; null when not read */
                        reconciled: boolean | null;
                        /** @description Deposits their funder took back on chain (SelfRefunded, Reclaimed): not held */
                        exited_slots: number;
                        /**
                         * @description Base units, base-10 integer string
                         * @example 100000000
                         */
                        exited_amount: string;
                        /**
                         * @description Pull credits withdrawn (Withdrawn logs)
                         * @example 100000000
                         */
                        credits_withdrawn: string;
                        /**
                         * @description Pull credits not withdrawn yet: part of a positive difference
                         * @example 100000000
                         */
                        credits_outstanding: string;
                    }[];
                }[];
                /** @description Open custody alerts (docs/custody.md): movements or proposals no signed decision explains; a contract with one is not reconciled */
                custody_alerts: {
                    id: string;
                    /** @enum {string} */
                    kind: "foreign_proposal" | "foreign_release" | "resolver_refund" | "decision_refused";
                    contract: string;
                    mission_id: string | null;
                    mission_key: string;
                    funder: string;
                    payout_id: string | null;
                    tx_hash: string | null;
                    detail: {
                        [key: string]: unknown;
                    };
                    created_at: string;
                }[];
                governance: {
                    /** @description Proposed changes not in effect yet: a funder's exit window */
                    pending: {
                        contract: string;
                        /** @description resolver | guardian | admin_transfer | admin_delay | fee_cap | release */
                        kind: string;
                        event: string;
                        args: {
                            [key: string]: unknown;
                        };
                        proposed_block: number;
                        tx_hash: string;
                        /** @description Unix seconds it may take effect */
                        effective_at: number | null;
                        effective_at_iso: string | null;
                    }[];
                    recent: {
                        contract: string;
                        event: string;
                        args: {
                            [key: string]: unknown;
                        };
                        block_number: number;
                        tx_hash: string;
                        at: string | null;
                    }[];
                };
            };
            /** @description Withdrawals of ledger balances to wallets (docs/withdrawals.md), per asset and state */
            withdrawals: {
                asset: string;
                state: string;
                count: number;
                /**
                 * @description Base units, base-10 integer string
                 * @example 100000000
                 */
                total: string;
            }[];
            payouts: string;
        };
        PayoutsPage: {
            payouts: {
                submission_id: string;
                mission_id: string;
                agent_id: string;
                asset: string;
                /**
                 * @description Base units, base-10 integer string
                 * @example 100000000
                 */
                amount: string;
                /** @enum {string} */
                rail: "ledger" | "base";
                /** @description When the award was decided and the payout made (ledger) or queued (base) */
                paid_at: string;
                settlement: {
                    /** @description ledger: credited; base: the release's state (queued … final, failed) */
                    status: string;
                    chain_id: number | null;
                    tx_hash: string | null;
                    ledger_entry_hash: string | null;
                };
                /** @description The signed §6.1 receipt */
                receipt: string;
            }[];
            next_cursor: string | null;
        };
        Stats: {
            as_of: string;
            missions: {
                total: number;
                by_status: {
                    open: number;
                    escrowed: number;
                    resolved: number;
                    voided: number;
                };
            };
            volume_paid: {
                asset: string;
                /**
                 * @description Base units, base-10 integer string
                 * @example 100000000
                 */
                amount: string;
                payouts: number;
                missions: number;
            }[];
            agents: number;
            transparency: string;
        };
        MeshRegisterAgentResult: {
            /** @enum {boolean} */
            success: true;
            /** @description The agent's address in the directory (GET /agents/{id}) */
            agentId: string;
            message: string;
            /** @description Issued only to a caller that registered without signing in: send it as X-API-Key. Shown once; only its hash is stored */
            api_key?: string;
        };
        MeshRegisterAgent: {
            /** @example SearchBot */
            name: string;
            /**
             * @description Where the hub forwards invocations of skills that name no endpoint of their own (https)
             * @example https://searchbot.example/mesh
             */
            endpoint?: string;
            /**
             * @example [
             *       "web_search",
             *       "data_extraction"
             *     ]
             */
            capabilities?: string[];
        };
        MeshSkill: {
            /** @example skl_01JZ0000000000000000000000 */
            id: string;
            agent_id: string;
            agent_name: string | null;
            name: string;
            description: string;
            endpoint: string | null;
            version: string | null;
            input_schema: {
                [key: string]: unknown;
            } | null;
            output_schema: {
                [key: string]: unknown;
            } | null;
            tags: string[];
            rate_limit: {
                maxCalls: number;
                periodMs: number;
            } | null;
            created_at: string;
            updated_at: string;
        };
        MeshRegisterSkill: {
            /** @description If given, must be the caller's own id */
            agentId?: string;
            /** @example web_search */
            name: string;
            description: string;
            /** @description Where the hub POSTs a skill_invocation message (https); default: the agent's endpoint */
            endpoint?: string;
            /** @example 1.0.0 */
            version?: string;
            /** @description JSON Schema (a bounded subset: no $ref or pattern; see docs/neighbours.md) */
            inputSchema?: {
                [key: string]: unknown;
            };
            /** @description JSON Schema (a bounded subset: no $ref or pattern; see docs/neighbours.md) */
            outputSchema?: {
                [key: string]: unknown;
            };
            tags?: string[];
            /** @description Invocations per caller through the hub: maxCalls per periodMs */
            rateLimit?: {
                maxCalls: number;
                periodMs: number;
            };
        };
        MeshSkillList: {
            skills: components["schemas"]["MeshSkill"][];
            next_cursor: string | null;
        };
        MeshSkillDeleted: {
            /** @enum {boolean} */
            deleted: true;
            id: string;
        };
        MeshSkillResponse: {
            /** @enum {boolean} */
            success: true;
            result?: unknown;
            error: null;
            metadata: {
                skillName: string;
                version: string | null;
                processingTimeMs: number;
                timestamp: string;
                /** @description The id of the skill_invocation message forwarded */
                invocationId: string;
                provider: string;
            };
        };
        MeshInvoke: {
            /** @description If given, must be the caller's own id */
            from?: string;
            /** @description The skill's input, validated against its inputSchema */
            payload?: unknown;
        };
        Withdrawal: {
            id: string;
            agent_id: string;
            asset: string;
            amount: string;
            to: string;
            chain_id: number;
            token: string;
            /** @enum {string} */
            state: "awaiting_approval" | "queued" | "broadcast" | "confirmed" | "failed" | "rejected";
            reason: string | null;
            tx_hash: string | null;
            block_number: number | null;
            receipt: components["schemas"]["SignedWithdrawalReceipt"];
            created_at: string;
            updated_at: string;
            confirmed_at: string | null;
        };
        /** @description the server's signed receipt once confirmed */
        SignedWithdrawalReceipt: {
            /** @enum {string} */
            type: "oabp.withdrawal";
            withdrawal_id: string;
            agent_id: string;
            to: string;
            asset: string;
            amount: string;
            chain_id: number;
            token: string;
            tx_hash: string;
            block_number: number;
            issued_at: string;
            digest: string;
            signature: {
                /** @enum {string} */
                alg: "ed25519";
                key_id: string;
                value: string;
            };
        } | null;
        WithdrawalRequest: {
            /** @default USDC */
            asset: string;
            /**
             * @description uint256 in base units, base-10 string
             * @example 100000000
             */
            amount: string;
        };
        WithdrawalList: {
            withdrawals: components["schemas"]["Withdrawal"][];
        };
        WithdrawalDecision: {
            reason?: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
