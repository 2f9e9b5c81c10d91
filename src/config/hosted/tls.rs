//! The TLS flags of a hosted CCM: HyperShift's `config.TLSArgs` of the HostedControlPlane's
//! `spec.configuration.apiServer.tlsSecurityProfile` (`HyperShift support/config/cipher.go`).
//! No profile is the Intermediate one; ciphers map to IANA names with HyperShift's own table
//! (`config/tls/tables.rs`, which says how it differs from library-go's), and a cipher it does
//! not know is left out.

use crate::config::tls::hypershift_openssl_to_iana;
use crate::inputs::hosted_control_plane::TlsSecurityProfile;
use anyhow::{Result, bail};
use camino::Utf8Path;

/// `--tls-min-version` and `--tls-cipher-suites`, as HyperShift appends them.
pub(crate) fn tls_args(
    profile: Option<&TlsSecurityProfile>,
    path: &Utf8Path,
) -> Result<Vec<String>> {
    let (min, ciphers): (String, Vec<String>) = match profile {
        None => profile_of("Intermediate"),
        Some(p) if p.profile_type == "Custom" => match &p.custom {
            Some(custom) => (custom.min_tls_version.clone(), custom.ciphers.clone()),
            // HyperShift dereferences the missing block and stops.
            None => bail!(
                "{path}: spec.configuration.apiServer.tlsSecurityProfile.custom is missing for type Custom"
            ),
        },
        Some(p) => match p.profile_type.as_str() {
            "Old" | "Intermediate" | "Modern" => profile_of(&p.profile_type),
            // openshift/api's TLSProfiles has no entry: no flags.
            "" => (String::new(), Vec::new()),
            other => bail!(
                "{path}: spec.configuration.apiServer.tlsSecurityProfile.type: unknown profile {other:?} (known: Old, Intermediate, Modern, Custom)"
            ),
        },
    };
    let mut args = Vec::new();
    if !min.is_empty() {
        args.push(format!("--tls-min-version={min}"));
    }
    let iana: Vec<&str> = ciphers
        .iter()
        .filter_map(|c| hypershift_openssl_to_iana(c))
        .collect();
    if !iana.is_empty() {
        args.push(format!("--tls-cipher-suites={}", iana.join(",")));
    }
    Ok(args)
}

fn profile_of(name: &str) -> (String, Vec<String>) {
    let (min, ciphers) = crate::config::tls::builtin_profile(name).unwrap_or_default();
    (
        min.to_string(),
        ciphers.iter().map(|c| (*c).to_string()).collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(kind: &str) -> TlsSecurityProfile {
        TlsSecurityProfile {
            profile_type: kind.into(),
            custom: None,
        }
    }

    fn args(profile: Option<&TlsSecurityProfile>) -> Vec<String> {
        tls_args(profile, Utf8Path::new("hcp.yaml")).expect("args")
    }

    // The expected lists below are what HyperShift's `CipherSuites` yields: openshift/api's
    // `TLSProfiles[type].Ciphers` in order, each looked up in `openSSLToIANACiphersMap`
    // (support/config/cipher.go), the names it lacks left out.

    #[test]
    fn old_passes_the_ten_suites_of_hypershifts_table() {
        assert_eq!(
            args(Some(&profile("Old"))),
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
        assert_eq!(args(Some(&profile("Intermediate"))), want);
        assert_eq!(args(None), want);
    }

    #[test]
    fn modern_has_no_cipher_flag() {
        // Its three suites are TLS 1.3 ones, which HyperShift's table comments out.
        assert_eq!(
            args(Some(&profile("Modern"))),
            ["--tls-min-version=VersionTLS13"]
        );
    }

    #[test]
    fn a_custom_profile_keeps_only_the_ciphers_hypershifts_table_has() {
        let custom = TlsSecurityProfile {
            profile_type: "Custom".into(),
            custom: Some(crate::inputs::hosted_control_plane::CustomTlsProfile {
                ciphers: [
                    "TLS_AES_128_GCM_SHA256",
                    "ECDHE-RSA-DES-CBC3-SHA",
                    "AES128-SHA",
                    "ECDHE-RSA-AES128-SHA256",
                    "ECDHE-RSA-AES256-SHA",
                    "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
                    "ECDHE-ECDSA-AES128-GCM-SHA256",
                    "NOPE",
                ]
                .map(String::from)
                .to_vec(),
                min_tls_version: "VersionTLS11".into(),
            }),
        };
        // library-go's table maps AES128-SHA, ECDHE-RSA-DES-CBC3-SHA and ECDHE-RSA-AES128-SHA256;
        // HyperShift's does not, nor IANA names (it looks OpenSSL names up only).
        assert_eq!(
            args(Some(&custom)),
            [
                "--tls-min-version=VersionTLS11",
                "--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA,TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"
            ]
        );
    }

    #[test]
    fn custom_without_its_block_and_an_unknown_type_are_refused() {
        let err = format!(
            "{:#}",
            tls_args(Some(&profile("Custom")), Utf8Path::new("h")).expect_err("refused")
        );
        assert!(
            err.contains("tlsSecurityProfile.custom is missing"),
            "{err}"
        );
        let err = format!(
            "{:#}",
            tls_args(Some(&profile("Strict")), Utf8Path::new("h")).expect_err("refused")
        );
        assert!(
            err.contains("tlsSecurityProfile.type: unknown profile \"Strict\""),
            "{err}"
        );
    }
}
