//! The fixed tables of TLS: Go's and OpenSSL's cipher names, the TLS versions, and the three
//! built-in profiles of openshift/api (`config/v1/types_tlssecurityprofile.go`).

/// One of the three fixed profiles of openshift/api.
#[derive(Debug)]
pub(super) struct BuiltinProfile {
    pub(super) min_tls_version: &'static str,
    pub(super) ciphers: &'static [&'static str],
}

/// library-go pkg/crypto `DefaultTLSVersion`: TLS 1.2.
pub(super) const DEFAULT_TLS_VERSION: &str = "VersionTLS12";

/// library-go pkg/crypto `goTLSVersions` / `enabledTLSVersions`: the names Go and OCP
/// accept.
pub(super) const TLS_VERSIONS: &[&str] = &[
    "VersionTLS10",
    "VersionTLS11",
    "VersionTLS12",
    "VersionTLS13",
];

/// library-go pkg/crypto goCipherSuites: every IANA name library-go's `CipherSuite` accepts, with
/// the name `CipherSuiteToNameOrDie` gives back for its code. The two legacy CHACHA20 spellings
/// without `_SHA256` share a code with the current names, and library-go always returns the
/// current name for that code.
pub(super) const GO_CIPHER_SUITES: &[(&str, &str)] = &[
    ("TLS_RSA_WITH_RC4_128_SHA", "TLS_RSA_WITH_RC4_128_SHA"),
    (
        "TLS_RSA_WITH_3DES_EDE_CBC_SHA",
        "TLS_RSA_WITH_3DES_EDE_CBC_SHA",
    ),
    (
        "TLS_RSA_WITH_AES_128_CBC_SHA",
        "TLS_RSA_WITH_AES_128_CBC_SHA",
    ),
    (
        "TLS_RSA_WITH_AES_256_CBC_SHA",
        "TLS_RSA_WITH_AES_256_CBC_SHA",
    ),
    (
        "TLS_RSA_WITH_AES_128_CBC_SHA256",
        "TLS_RSA_WITH_AES_128_CBC_SHA256",
    ),
    (
        "TLS_RSA_WITH_AES_128_GCM_SHA256",
        "TLS_RSA_WITH_AES_128_GCM_SHA256",
    ),
    (
        "TLS_RSA_WITH_AES_256_GCM_SHA384",
        "TLS_RSA_WITH_AES_256_GCM_SHA384",
    ),
    (
        "TLS_ECDHE_ECDSA_WITH_RC4_128_SHA",
        "TLS_ECDHE_ECDSA_WITH_RC4_128_SHA",
    ),
    (
        "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA",
        "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA",
    ),
    (
        "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA",
        "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA",
    ),
    (
        "TLS_ECDHE_RSA_WITH_RC4_128_SHA",
        "TLS_ECDHE_RSA_WITH_RC4_128_SHA",
    ),
    (
        "TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA",
        "TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA",
    ),
    (
        "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA",
        "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA",
    ),
    (
        "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA",
        "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA",
    ),
    (
        "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256",
        "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256",
    ),
    (
        "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256",
        "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256",
    ),
    (
        "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
        "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
    ),
    (
        "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
        "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
    ),
    (
        "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
        "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
    ),
    (
        "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
        "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
    ),
    (
        "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305",
        "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
    ),
    (
        "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305",
        "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
    ),
    (
        "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
        "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
    ),
    (
        "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
        "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
    ),
    ("TLS_AES_128_GCM_SHA256", "TLS_AES_128_GCM_SHA256"),
    ("TLS_AES_256_GCM_SHA384", "TLS_AES_256_GCM_SHA384"),
    (
        "TLS_CHACHA20_POLY1305_SHA256",
        "TLS_CHACHA20_POLY1305_SHA256",
    ),
];

/// library-go pkg/crypto openSSLToIANACiphers: OpenSSL names of the ciphers Go can negotiate.
/// Names absent here (the DHE suites, `ECDHE-*-AES256-SHA384`, `AES256-SHA256`) are the ones
/// library-go lists as unsupported by Go and drops.
pub(super) const OPENSSL_TO_IANA: &[(&str, &str)] = &[
    ("TLS_AES_128_GCM_SHA256", "TLS_AES_128_GCM_SHA256"),
    ("TLS_AES_256_GCM_SHA384", "TLS_AES_256_GCM_SHA384"),
    (
        "TLS_CHACHA20_POLY1305_SHA256",
        "TLS_CHACHA20_POLY1305_SHA256",
    ),
    (
        "ECDHE-ECDSA-AES128-GCM-SHA256",
        "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
    ),
    (
        "ECDHE-RSA-AES128-GCM-SHA256",
        "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
    ),
    (
        "ECDHE-ECDSA-AES256-GCM-SHA384",
        "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
    ),
    (
        "ECDHE-RSA-AES256-GCM-SHA384",
        "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
    ),
    (
        "ECDHE-ECDSA-CHACHA20-POLY1305",
        "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
    ),
    (
        "ECDHE-RSA-CHACHA20-POLY1305",
        "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
    ),
    (
        "ECDHE-ECDSA-AES128-SHA256",
        "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256",
    ),
    (
        "ECDHE-RSA-AES128-SHA256",
        "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256",
    ),
    ("AES128-GCM-SHA256", "TLS_RSA_WITH_AES_128_GCM_SHA256"),
    ("AES256-GCM-SHA384", "TLS_RSA_WITH_AES_256_GCM_SHA384"),
    ("AES128-SHA256", "TLS_RSA_WITH_AES_128_CBC_SHA256"),
    (
        "ECDHE-ECDSA-AES128-SHA",
        "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA",
    ),
    ("ECDHE-RSA-AES128-SHA", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA"),
    (
        "ECDHE-ECDSA-AES256-SHA",
        "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA",
    ),
    ("ECDHE-RSA-AES256-SHA", "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA"),
    ("AES128-SHA", "TLS_RSA_WITH_AES_128_CBC_SHA"),
    ("AES256-SHA", "TLS_RSA_WITH_AES_256_CBC_SHA"),
    ("DES-CBC3-SHA", "TLS_RSA_WITH_3DES_EDE_CBC_SHA"),
    (
        "ECDHE-RSA-DES-CBC3-SHA",
        "TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA",
    ),
];

/// HyperShift `support/config/cipher.go` `openSSLToIANACiphersMap` (openshift/hypershift at
/// 3ee96155): the table HyperShift's `config.TLSArgs` maps a hosted control plane's profile with,
/// a table of its own rather than library-go's [`OPENSSL_TO_IANA`]. It has ten names: the TLS 1.3
/// suites are commented out there ("not configurable"), and it never had the CBC-SHA256, the
/// RSA key exchange or the 3DES suites, so a name of those is left out of the flags
/// (`OpenSSLToIANACipherSuites`: "Unknown ciphers are left out").
pub(super) const HYPERSHIFT_OPENSSL_TO_IANA: &[(&str, &str)] = &[
    (
        "ECDHE-ECDSA-AES128-GCM-SHA256",
        "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
    ),
    (
        "ECDHE-RSA-AES128-GCM-SHA256",
        "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
    ),
    (
        "ECDHE-ECDSA-AES256-GCM-SHA384",
        "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
    ),
    (
        "ECDHE-RSA-AES256-GCM-SHA384",
        "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
    ),
    (
        "ECDHE-ECDSA-CHACHA20-POLY1305",
        "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
    ),
    (
        "ECDHE-RSA-CHACHA20-POLY1305",
        "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
    ),
    (
        "ECDHE-ECDSA-AES128-SHA",
        "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA",
    ),
    ("ECDHE-RSA-AES128-SHA", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA"),
    (
        "ECDHE-ECDSA-AES256-SHA",
        "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA",
    ),
    ("ECDHE-RSA-AES256-SHA", "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA"),
];

// openshift/api config/v1/types_tlssecurityprofile.go TLSProfiles. Older openshift/api releases
// also list DHE-*, ECDHE-*-AES256-SHA384 and AES256-SHA256 in Old/Intermediate; newer ones moved
// them to comments as unsupported by Go. Either way library-go drops them, so the flags are the
// same; the lists below are the newer ones.

/// openshift/api `TLSProfiles[Old]` (Mozilla guidelines 5.0 "old", TLS 1.3 suites prepended).
pub(super) static OLD: BuiltinProfile = BuiltinProfile {
    min_tls_version: "VersionTLS10",
    ciphers: &[
        "TLS_AES_128_GCM_SHA256",
        "TLS_AES_256_GCM_SHA384",
        "TLS_CHACHA20_POLY1305_SHA256",
        "ECDHE-ECDSA-AES128-GCM-SHA256",
        "ECDHE-RSA-AES128-GCM-SHA256",
        "ECDHE-ECDSA-AES256-GCM-SHA384",
        "ECDHE-RSA-AES256-GCM-SHA384",
        "ECDHE-ECDSA-CHACHA20-POLY1305",
        "ECDHE-RSA-CHACHA20-POLY1305",
        "ECDHE-ECDSA-AES128-SHA256",
        "ECDHE-RSA-AES128-SHA256",
        "ECDHE-ECDSA-AES128-SHA",
        "ECDHE-RSA-AES128-SHA",
        "ECDHE-ECDSA-AES256-SHA",
        "ECDHE-RSA-AES256-SHA",
        "AES128-GCM-SHA256",
        "AES256-GCM-SHA384",
        "AES128-SHA256",
        "AES128-SHA",
        "AES256-SHA",
        "DES-CBC3-SHA",
    ],
};

/// openshift/api `TLSProfiles[Intermediate]`; also the default when no profile applies
/// (library-go pkg/crypto `DefaultTLSProfileType`).
pub(super) static INTERMEDIATE: BuiltinProfile = BuiltinProfile {
    min_tls_version: "VersionTLS12",
    ciphers: &[
        "TLS_AES_128_GCM_SHA256",
        "TLS_AES_256_GCM_SHA384",
        "TLS_CHACHA20_POLY1305_SHA256",
        "ECDHE-ECDSA-AES128-GCM-SHA256",
        "ECDHE-RSA-AES128-GCM-SHA256",
        "ECDHE-ECDSA-AES256-GCM-SHA384",
        "ECDHE-RSA-AES256-GCM-SHA384",
        "ECDHE-ECDSA-CHACHA20-POLY1305",
        "ECDHE-RSA-CHACHA20-POLY1305",
    ],
};

/// openshift/api `TLSProfiles[Modern]`.
pub(super) static MODERN: BuiltinProfile = BuiltinProfile {
    min_tls_version: "VersionTLS13",
    ciphers: &[
        "TLS_AES_128_GCM_SHA256",
        "TLS_AES_256_GCM_SHA384",
        "TLS_CHACHA20_POLY1305_SHA256",
    ],
};
