//! The TLS flags of a hosted CCM: HyperShift's `config.TLSArgs` of the HostedControlPlane's
//! profile (`support/config/cipher.go` `MinTLSVersion` and `CipherSuites`), the profile read by
//! [`super::profile`] as the standalone render reads the APIServer's. No profile is the
//! Intermediate one; ciphers map to IANA names with HyperShift's own table
//! (`tables.rs`, which says how it differs from library-go's), and a cipher it does not know is
//! left out. Unlike CCCMO's flags, no suite is dropped for TLS 1.3, an empty `minTLSVersion`
//! gives no `--tls-min-version`, and the version comes first.

use super::profile::{TlsSecurityProfile, intermediate};
use super::tables::HYPERSHIFT_OPENSSL_TO_IANA;
use anyhow::Result;

/// `--tls-min-version` and `--tls-cipher-suites`, as HyperShift appends them for `profile`
/// (None when the HostedControlPlane has none), read at the field `at`.
pub(crate) fn tls_args(profile: Option<&TlsSecurityProfile>, at: &str) -> Result<Vec<String>> {
    let spec = match profile {
        None => intermediate(),
        Some(profile) => match profile.spec(at)? {
            Some(spec) => spec,
            // An empty type: openshift/api's TLSProfiles has no entry, so no flags.
            None => return Ok(Vec::new()),
        },
    };
    let mut args = Vec::new();
    if !spec.min_tls_version.is_empty() {
        args.push(format!("--tls-min-version={}", spec.min_tls_version));
    }
    let iana: Vec<&str> = spec
        .ciphers
        .iter()
        .filter_map(|c| openssl_to_iana(c))
        .collect();
    if !iana.is_empty() {
        args.push(format!("--tls-cipher-suites={}", iana.join(",")));
    }
    Ok(args)
}

/// HyperShift's IANA name of an OpenSSL cipher name (`openSSLToIANACiphersMap`), when its table
/// has one.
fn openssl_to_iana(name: &str) -> Option<&'static str> {
    HYPERSHIFT_OPENSSL_TO_IANA
        .iter()
        .find(|(openssl, _)| *openssl == name)
        .map(|(_, iana)| *iana)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    const AT: &str = "spec.configuration.apiServer.tlsSecurityProfile";

    fn args(profile: Option<Value>) -> Vec<String> {
        let profile = profile.map(|p| super::super::profile::read(&p, AT).expect("reads"));
        tls_args(profile.as_ref(), AT).expect("args")
    }

    // The expected lists below are what HyperShift's `CipherSuites` yields: openshift/api's
    // `TLSProfiles[type].Ciphers` in order, each looked up in `openSSLToIANACiphersMap`
    // (support/config/cipher.go), the names it lacks left out.

    #[test]
    fn old_passes_the_ten_suites_of_hypershifts_table() {
        assert_eq!(
            args(Some(json!({"type": "Old", "old": {}}))),
            [
                "--tls-min-version=VersionTLS10",
                concat!(
                    "--tls-cipher-suites=",
                    "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,",
                    "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,",
                    "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,",
                    "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,",
                    "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,",
                    "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,",
                    "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA,",
                    "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA,",
                    "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA,",
                    "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA",
                ),
            ]
        );
    }

    #[test]
    fn intermediate_is_the_default_and_passes_its_six_tls12_suites() {
        let want = [
            "--tls-min-version=VersionTLS12",
            concat!(
                "--tls-cipher-suites=",
                "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,",
                "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,",
                "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,",
                "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,",
                "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,",
                "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
            ),
        ];
        assert_eq!(args(Some(json!({"type": "Intermediate"}))), want);
        assert_eq!(args(None), want);
    }

    #[test]
    fn modern_has_no_cipher_flag_and_an_empty_type_no_flags() {
        // Modern's three suites are TLS 1.3 ones, which HyperShift's table comments out.
        assert_eq!(
            args(Some(json!({"type": "Modern"}))),
            ["--tls-min-version=VersionTLS13"]
        );
        assert_eq!(args(Some(json!({}))), Vec::<String>::new());
    }

    #[test]
    fn a_custom_profile_keeps_only_the_ciphers_hypershifts_table_has() {
        // library-go's table maps AES128-SHA, ECDHE-RSA-DES-CBC3-SHA and ECDHE-RSA-AES128-SHA256;
        // HyperShift's does not, nor IANA names (it looks OpenSSL names up only).
        let custom = json!({"type": "Custom", "custom": {
            "minTLSVersion": "VersionTLS11",
            "ciphers": [
                "TLS_AES_128_GCM_SHA256",
                "ECDHE-RSA-DES-CBC3-SHA",
                "AES128-SHA",
                "ECDHE-RSA-AES128-SHA256",
                "ECDHE-RSA-AES256-SHA",
                "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
                "ECDHE-ECDSA-AES128-GCM-SHA256",
                "NOPE",
            ],
        }});
        assert_eq!(
            args(Some(custom)),
            [
                "--tls-min-version=VersionTLS11",
                "--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA,TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"
            ]
        );
        // HyperShift passes the block's version as it is, none when it is empty, and keeps the
        // suites under TLS 1.3 too.
        let custom = json!({"type": "Custom", "custom": {"ciphers": ["ECDHE-RSA-AES256-SHA"]}});
        assert_eq!(
            args(Some(custom)),
            ["--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA"]
        );
        let custom = json!({"type": "Custom", "custom": {
            "minTLSVersion": "VersionTLS13", "ciphers": ["ECDHE-RSA-AES256-SHA"]}});
        assert_eq!(
            args(Some(custom)),
            [
                "--tls-min-version=VersionTLS13",
                "--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA"
            ]
        );
    }

    #[test]
    fn custom_without_its_block_is_refused_naming_the_field() {
        let profile = super::super::profile::read(&json!({"type": "Custom"}), AT).expect("reads");
        let err = format!("{:#}", tls_args(Some(&profile), AT).expect_err("refused"));
        assert_eq!(
            err,
            format!("{AT}.custom: required when {AT}.type is \"Custom\"")
        );
    }
}
