//! The TLS flags of a hosted CCM: HyperShift's `config.TLSArgs` of the HostedControlPlane's
//! `spec.configuration.apiServer.tlsSecurityProfile` (`HyperShift support/config/cipher.go`).
//! No profile is the Intermediate one; ciphers map to IANA names with HyperShift's own table
//! (which differs from library-go's), and a cipher it does not know is left out.

use crate::inputs::hosted_control_plane::TlsSecurityProfile;
use anyhow::{Result, bail};
use camino::Utf8Path;

/// The OpenSSL names library-go's table (`config/tls/tables.rs`) maps and HyperShift's
/// `openSSLToIANACiphersMap` does not: the TLS 1.3 suites and `ECDHE-RSA-DES-CBC3-SHA`. The
/// rest of the two tables is the same, each name to the same IANA name; so the Modern profile
/// gives no `--tls-cipher-suites`.
const NOT_IN_HYPERSHIFT: &[&str] = &[
    "TLS_AES_128_GCM_SHA256",
    "TLS_AES_256_GCM_SHA384",
    "TLS_CHACHA20_POLY1305_SHA256",
    "ECDHE-RSA-DES-CBC3-SHA",
];

/// HyperShift's IANA name of an OpenSSL cipher name, when it maps it.
fn openssl_to_iana(name: &str) -> Option<&'static str> {
    if NOT_IN_HYPERSHIFT.contains(&name) {
        None
    } else {
        crate::config::tls::openssl_to_iana(name)
    }
}

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
    let iana: Vec<&str> = ciphers.iter().filter_map(|c| openssl_to_iana(c)).collect();
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

    #[test]
    fn modern_has_no_cipher_flag_and_intermediate_is_the_default() {
        let path = Utf8Path::new("hcp.yaml");
        assert_eq!(
            tls_args(Some(&profile("Modern")), path).expect("args"),
            ["--tls-min-version=VersionTLS13"]
        );
        let default = tls_args(None, path).expect("args");
        assert_eq!(default[0], "--tls-min-version=VersionTLS12");
        assert!(
            default[1].starts_with("--tls-cipher-suites=TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,")
        );
    }

    #[test]
    fn old_keeps_only_the_ciphers_hypershift_maps() {
        let old = tls_args(Some(&profile("Old")), Utf8Path::new("h")).expect("args");
        assert_eq!(old[0], "--tls-min-version=VersionTLS10");
        assert!(
            old[1].ends_with(",TLS_RSA_WITH_3DES_EDE_CBC_SHA"),
            "{}",
            old[1]
        );
    }

    #[test]
    fn a_custom_profile_loses_the_ciphers_hypershift_does_not_map_and_only_those() {
        let custom = TlsSecurityProfile {
            profile_type: "Custom".into(),
            custom: Some(crate::inputs::hosted_control_plane::CustomTlsProfile {
                ciphers: [
                    "TLS_AES_128_GCM_SHA256",
                    "ECDHE-RSA-DES-CBC3-SHA",
                    "AES128-SHA",
                    "NOPE",
                ]
                .map(String::from)
                .to_vec(),
                min_tls_version: "VersionTLS11".into(),
            }),
        };
        assert!(crate::config::tls::openssl_to_iana("ECDHE-RSA-DES-CBC3-SHA").is_some());
        assert_eq!(
            tls_args(Some(&custom), Utf8Path::new("h")).expect("args"),
            [
                "--tls-min-version=VersionTLS11",
                "--tls-cipher-suites=TLS_RSA_WITH_AES_128_CBC_SHA"
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
