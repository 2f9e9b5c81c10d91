//! TLS settings for the cloud controller managers, derived from the cluster `APIServer` object.
//!
//! This module owns the one decision CCCMO makes about TLS (`pkg/tls/tls.go`): which profile the
//! operands must honour, and how that profile becomes the `--tls-cipher-suites` and
//! `--tls-min-version` flags of every CCM script. Everything it emits comes from fixed tables
//! below, never from input text, so the flag values are always safe on a shell script line.

use anyhow::{Result, bail};
use ccm_catalogue::json_fields::{as_object, optional_object, optional_str};
use profile::{ProfileSpec, TlsSecurityProfile};
use serde_json::Value;
use tables::{DEFAULT_TLS_VERSION, GO_CIPHER_SUITES, OPENSSL_TO_IANA};

pub(crate) mod hypershift;
pub(crate) mod profile;
mod tables;

/// Where CCCMO reads the profile in the APIServer object.
const PROFILE_FIELD: &str = "spec.tlsSecurityProfile";

/// The TLS flags CCCMO passes to every cloud controller manager.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsSettings {
    /// Go's name for the minimum TLS version, e.g. `VersionTLS12`.
    pub(crate) min_version: String,
    /// IANA cipher suite names, in profile order; empty when the minimum version is TLS 1.3.
    pub(crate) cipher_suites: Vec<String>,
}

impl TlsSettings {
    /// The flags CCCMO puts in every CCM script, in order: `--tls-cipher-suites=a,b,…` (only when
    /// ciphers are set) then `--tls-min-version=…` (only when set).
    pub fn flags(&self) -> Vec<String> {
        let mut flags = Vec::with_capacity(2);
        // CCCMO's templates: `{{- if .tlsCipherSuites }}` then `{{- if .tlsMinVersion }}`.
        if !self.cipher_suites.is_empty() {
            flags.push(format!(
                "--tls-cipher-suites={}",
                self.cipher_suites.join(",")
            ));
        }
        if !self.min_version.is_empty() {
            flags.push(format!("--tls-min-version={}", self.min_version));
        }
        flags
    }
}

/// The TLS settings CCCMO derives from `apiservers.config.openshift.io/cluster`.
///
/// `apiserver`: the parsed `apiservers.config.openshift.io` object (`cluster`) as JSON, or None
/// when not given (→ Intermediate, as the operator does when it cannot read the object).
///
/// The cluster profile is honoured only when `spec.tlsAdherence` asks for it; unset,
/// `NoOpinion` and `LegacyAdheringComponentsOnly` keep the Intermediate profile. Input the API
/// server would reject (unknown profile type or TLS version, wrong JSON types) is an error that
/// names the field, and so is a `Custom` profile without its `custom` block when it would apply.
pub fn from_apiserver(apiserver: Option<&Value>) -> Result<TlsSettings> {
    let Some(apiserver) = apiserver else {
        // controller-runtime-common pkg/tls: a failed APIServer fetch leaves adherence "" and the
        // profile empty; "" adherence then selects the default (Intermediate) profile.
        return Ok(resolve(&profile::intermediate()));
    };
    let cluster = ClusterTls::parse(apiserver)?;

    if !cluster.adherence.honours_cluster_profile() {
        // cluster-cloud-controller-manager-operator pkg/tls/tls.go: when the adherence policy does
        // not require the cluster profile, the operands get
        // configv1.TLSProfiles[libgocrypto.DefaultTLSProfileType], i.e. Intermediate.
        return Ok(resolve(&profile::intermediate()));
    }

    // controller-runtime-common pkg/tls GetTLSProfileSpec: nil profile or empty type →
    // Intermediate. For a Custom profile without its block it returns ErrCustomProfileNil;
    // CCCMO logs it and carries on with an empty profile (TLS 1.2, no cipher flag), which
    // silently drops the administrator's intent; an offline render refuses instead.
    let spec = match &cluster.profile {
        None => None,
        Some(profile) => profile.spec(PROFILE_FIELD)?,
    };
    let spec = spec.unwrap_or_else(profile::intermediate);
    Ok(resolve(&spec))
}

/// `spec.tlsAdherence`, reduced to what CCCMO does with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Adherence {
    /// `""` (`NoOpinion`) or `LegacyAdheringComponentsOnly`.
    Legacy,
    /// `StrictAllComponents`, or any value this version does not know.
    Strict,
}

impl Adherence {
    fn parse(value: Option<&Value>) -> Result<Self> {
        let text = optional_str(value, "spec.tlsAdherence")?.unwrap_or_default();
        // library-go pkg/crypto/tls_adherence.go ShouldHonorClusterTLSProfile: NoOpinion ("") and
        // LegacyAdheringComponentsOnly → false; StrictAllComponents and unknown values → true
        // ("forward compatibility … default to the more secure behavior"). The value never
        // reaches the output, so an unknown one is safe to accept as the operator does.
        Ok(match text {
            "" | "LegacyAdheringComponentsOnly" => Self::Legacy,
            _ => Self::Strict,
        })
    }

    fn honours_cluster_profile(self) -> bool {
        self == Self::Strict
    }
}

struct ClusterTls {
    adherence: Adherence,
    /// None when `spec.tlsSecurityProfile` is absent.
    profile: Option<TlsSecurityProfile>,
}

impl ClusterTls {
    fn parse(apiserver: &Value) -> Result<Self> {
        let root = as_object(apiserver, "apiserver")?;
        if let Some(kind) = optional_str(root.get("kind"), "kind")?
            && kind != "APIServer"
        {
            bail!("kind: expected \"APIServer\", got {kind:?}");
        }
        let Some(spec) = optional_object(root.get("spec"), "spec")? else {
            return Ok(Self {
                adherence: Adherence::Legacy,
                profile: None,
            });
        };
        let adherence = Adherence::parse(spec.get("tlsAdherence"))?;
        let profile = match spec.get("tlsSecurityProfile") {
            None | Some(Value::Null) => None,
            Some(profile) => Some(profile::read(profile, PROFILE_FIELD)?),
        };
        Ok(Self { adherence, profile })
    }
}

/// Turns a profile into the flag values, as controller-runtime-common pkg/tls
/// `NewTLSConfigFromProfile` and CCCMO's config composition do.
fn resolve(spec: &ProfileSpec) -> TlsSettings {
    // library-go pkg/crypto TLSVersion: "" → DefaultTLSVersion() = VersionTLS12; the name comes
    // back out through TLSVersionToNameOrDie, which is the identity on the four known names.
    let min_version = if spec.min_tls_version.is_empty() {
        DEFAULT_TLS_VERSION
    } else {
        spec.min_tls_version
    };
    // controller-runtime-common pkg/tls: "TLS 1.3 cipher suites are not configurable in Go
    // (golang/go#29349), so only set CipherSuites" when MinVersion is below TLS 1.3; CCCMO then
    // leaves TLSCipherSuites empty and the template drops the flag.
    let cipher_suites = if min_version == "VersionTLS13" {
        Vec::new()
    } else {
        spec.ciphers
            .iter()
            .filter_map(|name| go_cipher_name(name))
            .map(str::to_owned)
            .collect()
    };
    TlsSettings {
        min_version: min_version.to_owned(),
        cipher_suites,
    }
}

/// The IANA name Go's crypto/tls knows for an OpenSSL or IANA cipher name, or None when Go cannot
/// negotiate it (CCCMO logs those and drops them).
fn go_cipher_name(name: &str) -> Option<&'static str> {
    // controller-runtime-common pkg/tls cipherCode: first as an IANA name
    // (libgocrypto.CipherSuite), then through libgocrypto.OpenSSLToIANACipherSuites.
    if let Some(canonical) = go_cipher_by_iana(name) {
        return Some(canonical);
    }
    let (_, iana) = OPENSSL_TO_IANA
        .iter()
        .find(|(openssl, _)| *openssl == name)?;
    go_cipher_by_iana(iana)
}

/// The canonical name of a cipher Go supports, given any IANA name library-go accepts for it.
fn go_cipher_by_iana(name: &str) -> Option<&'static str> {
    GO_CIPHER_SUITES
        .iter()
        .find(|(iana, _)| *iana == name)
        .map(|(_, canonical)| *canonical)
}

#[cfg(test)]
mod tests {
    use super::tables::{HYPERSHIFT_OPENSSL_TO_IANA, INTERMEDIATE, MODERN, OLD, TLS_VERSIONS};
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    const INTERMEDIATE_CIPHERS: &str = "TLS_AES_128_GCM_SHA256,TLS_AES_256_GCM_SHA384,TLS_CHACHA20_POLY1305_SHA256,TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256";

    fn apiserver(spec: &Value) -> Value {
        json!({
            "apiVersion": "config.openshift.io/v1",
            "kind": "APIServer",
            "metadata": {"name": "cluster"},
            "spec": spec,
        })
    }

    fn strict(profile: &Value) -> Value {
        apiserver(&json!({"tlsAdherence": "StrictAllComponents", "tlsSecurityProfile": profile}))
    }

    fn settings(object: &Value) -> TlsSettings {
        match from_apiserver(Some(object)) {
            Ok(settings) => settings,
            Err(err) => panic!("unexpected error: {err:#}"),
        }
    }

    fn error(object: &Value) -> String {
        match from_apiserver(Some(object)) {
            Ok(settings) => panic!("expected an error, got {settings:?}"),
            Err(err) => format!("{err:#}"),
        }
    }

    fn intermediate_flags() -> Vec<String> {
        vec![
            format!("--tls-cipher-suites={INTERMEDIATE_CIPHERS}"),
            "--tls-min-version=VersionTLS12".to_owned(),
        ]
    }

    #[test]
    fn no_apiserver_gives_intermediate() {
        let settings = from_apiserver(None).expect("no input cannot fail");
        assert_eq!(settings.min_version, "VersionTLS12");
        assert_eq!(settings.cipher_suites.join(","), INTERMEDIATE_CIPHERS);
        assert_eq!(settings.flags(), intermediate_flags());
    }

    #[test]
    fn object_without_spec_gives_intermediate() {
        let object = json!({"kind": "APIServer", "metadata": {"name": "cluster"}});
        assert_eq!(settings(&object).flags(), intermediate_flags());
    }

    #[test]
    fn unset_adherence_ignores_cluster_profile() {
        let object = apiserver(&json!({"tlsSecurityProfile": {"type": "Modern", "modern": {}}}));
        assert_eq!(settings(&object).flags(), intermediate_flags());
    }

    #[test]
    fn empty_adherence_is_no_opinion() {
        let object = apiserver(&json!({"tlsAdherence": "", "tlsSecurityProfile": {"type": "Old"}}));
        assert_eq!(settings(&object).flags(), intermediate_flags());
    }

    #[test]
    fn legacy_adherence_ignores_cluster_profile() {
        let object = apiserver(&json!({
            "tlsAdherence": "LegacyAdheringComponentsOnly",
            "tlsSecurityProfile": {"type": "Modern"},
        }));
        assert_eq!(settings(&object).flags(), intermediate_flags());
    }

    #[test]
    fn legacy_adherence_tolerates_custom_without_block() {
        // The profile is not used, so the missing block does not matter (as in CCCMO).
        let object = apiserver(&json!({
            "tlsAdherence": "LegacyAdheringComponentsOnly",
            "tlsSecurityProfile": {"type": "Custom"},
        }));
        assert_eq!(settings(&object).flags(), intermediate_flags());
    }

    #[test]
    fn strict_adherence_honours_modern() {
        let object = strict(&json!({"type": "Modern", "modern": {}}));
        assert_eq!(
            settings(&object),
            TlsSettings {
                min_version: "VersionTLS13".to_owned(),
                cipher_suites: Vec::new(),
            }
        );
    }

    #[test]
    fn modern_profile_has_no_cipher_flag() {
        let object = strict(&json!({"type": "Modern"}));
        assert_eq!(
            settings(&object).flags(),
            vec!["--tls-min-version=VersionTLS13".to_owned()]
        );
    }

    #[test]
    fn unknown_adherence_is_treated_as_strict() {
        let object = apiserver(&json!({
            "tlsAdherence": "SomethingNewer",
            "tlsSecurityProfile": {"type": "Modern"},
        }));
        assert_eq!(settings(&object).min_version, "VersionTLS13");
    }

    #[test]
    fn strict_adherence_without_profile_gives_intermediate() {
        let object = apiserver(&json!({"tlsAdherence": "StrictAllComponents"}));
        assert_eq!(settings(&object).flags(), intermediate_flags());
    }

    #[test]
    fn strict_adherence_with_empty_type_gives_intermediate() {
        let object = strict(&json!({"type": ""}));
        assert_eq!(settings(&object).flags(), intermediate_flags());
        let object = strict(&json!({}));
        assert_eq!(settings(&object).flags(), intermediate_flags());
    }

    #[test]
    fn intermediate_profile_matches_known_value() {
        let object = strict(&json!({"type": "Intermediate", "intermediate": {}}));
        assert_eq!(settings(&object).flags(), intermediate_flags());
    }

    #[test]
    fn old_profile_drops_ciphers_go_cannot_negotiate() {
        let object = strict(&json!({"type": "Old", "old": {}}));
        let settings = settings(&object);
        assert_eq!(settings.min_version, "VersionTLS10");
        assert_eq!(
            settings.cipher_suites,
            [
                "TLS_AES_128_GCM_SHA256",
                "TLS_AES_256_GCM_SHA384",
                "TLS_CHACHA20_POLY1305_SHA256",
                "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
                "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
                "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
                "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
                "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
                "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
                "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256",
                "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256",
                "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA",
                "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA",
                "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA",
                "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA",
                "TLS_RSA_WITH_AES_128_GCM_SHA256",
                "TLS_RSA_WITH_AES_256_GCM_SHA384",
                "TLS_RSA_WITH_AES_128_CBC_SHA256",
                "TLS_RSA_WITH_AES_128_CBC_SHA",
                "TLS_RSA_WITH_AES_256_CBC_SHA",
                "TLS_RSA_WITH_3DES_EDE_CBC_SHA",
            ]
        );
    }

    #[test]
    fn older_api_profile_lists_give_the_same_flags() {
        // Older openshift/api Old profile, with the suites Go cannot negotiate still listed.
        let older_old = [
            "TLS_AES_128_GCM_SHA256",
            "TLS_AES_256_GCM_SHA384",
            "TLS_CHACHA20_POLY1305_SHA256",
            "ECDHE-ECDSA-AES128-GCM-SHA256",
            "ECDHE-RSA-AES128-GCM-SHA256",
            "ECDHE-ECDSA-AES256-GCM-SHA384",
            "ECDHE-RSA-AES256-GCM-SHA384",
            "ECDHE-ECDSA-CHACHA20-POLY1305",
            "ECDHE-RSA-CHACHA20-POLY1305",
            "DHE-RSA-AES128-GCM-SHA256",
            "DHE-RSA-AES256-GCM-SHA384",
            "DHE-RSA-CHACHA20-POLY1305",
            "ECDHE-ECDSA-AES128-SHA256",
            "ECDHE-RSA-AES128-SHA256",
            "ECDHE-ECDSA-AES128-SHA",
            "ECDHE-RSA-AES128-SHA",
            "ECDHE-ECDSA-AES256-SHA384",
            "ECDHE-RSA-AES256-SHA384",
            "ECDHE-ECDSA-AES256-SHA",
            "ECDHE-RSA-AES256-SHA",
            "DHE-RSA-AES128-SHA256",
            "DHE-RSA-AES256-SHA256",
            "AES128-GCM-SHA256",
            "AES256-GCM-SHA384",
            "AES128-SHA256",
            "AES256-SHA256",
            "AES128-SHA",
            "AES256-SHA",
            "DES-CBC3-SHA",
        ];
        let custom = strict(&json!({
            "type": "Custom",
            "custom": {"minTLSVersion": "VersionTLS10", "ciphers": older_old},
        }));
        let old = strict(&json!({"type": "Old"}));
        assert_eq!(settings(&custom), settings(&old));
    }

    #[test]
    fn custom_profile_maps_openssl_names_to_iana() {
        let object = strict(&json!({
            "type": "Custom",
            "custom": {
                "minTLSVersion": "VersionTLS11",
                "ciphers": [
                    "ECDHE-ECDSA-CHACHA20-POLY1305",
                    "ECDHE-RSA-CHACHA20-POLY1305",
                    "ECDHE-RSA-AES128-GCM-SHA256",
                    "ECDHE-ECDSA-AES128-GCM-SHA256",
                ],
            },
        }));
        assert_eq!(
            settings(&object).flags(),
            vec![
                "--tls-cipher-suites=TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256".to_owned(),
                "--tls-min-version=VersionTLS11".to_owned(),
            ]
        );
    }

    #[test]
    fn custom_profile_matches_cccmo_config_test() {
        // CCCMO pkg/config/config_test.go: MinVersion TLS 1.2 with two RSA GCM suites.
        let object = strict(&json!({
            "type": "Custom",
            "custom": {
                "minTLSVersion": "VersionTLS12",
                "ciphers": [
                    "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
                    "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
                ],
            },
        }));
        assert_eq!(
            settings(&object).flags(),
            vec![
                "--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384".to_owned(),
                "--tls-min-version=VersionTLS12".to_owned(),
            ]
        );
    }

    #[test]
    fn custom_profile_accepts_legacy_chacha_names_and_emits_current_ones() {
        let object = strict(&json!({
            "type": "Custom",
            "custom": {
                "minTLSVersion": "VersionTLS12",
                "ciphers": ["TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305"],
            },
        }));
        assert_eq!(
            settings(&object).cipher_suites,
            ["TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"]
        );
    }

    #[test]
    fn custom_profile_drops_unsupported_and_unknown_ciphers() {
        let object = strict(&json!({
            "type": "Custom",
            "custom": {
                "minTLSVersion": "VersionTLS12",
                "ciphers": [
                    "DHE-RSA-AES128-GCM-SHA256",
                    "ECDHE-RSA-AES256-SHA384",
                    "AES256-SHA256",
                    "NOT-A-CIPHER",
                    "ECDHE-RSA-AES128-GCM-SHA256",
                ],
            },
        }));
        assert_eq!(
            settings(&object).cipher_suites,
            ["TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"]
        );
    }

    #[test]
    fn custom_profile_with_only_unsupported_ciphers_has_no_cipher_flag() {
        let object = strict(&json!({
            "type": "Custom",
            "custom": {"minTLSVersion": "VersionTLS12", "ciphers": ["DHE-RSA-AES128-GCM-SHA256"]},
        }));
        assert_eq!(
            settings(&object).flags(),
            vec!["--tls-min-version=VersionTLS12".to_owned()]
        );
    }

    #[test]
    fn custom_profile_with_tls13_has_no_cipher_flag() {
        let object = strict(&json!({
            "type": "Custom",
            "custom": {"minTLSVersion": "VersionTLS13", "ciphers": ["ECDHE-RSA-AES128-GCM-SHA256"]},
        }));
        assert_eq!(
            settings(&object).flags(),
            vec!["--tls-min-version=VersionTLS13".to_owned()]
        );
    }

    #[test]
    fn custom_profile_without_version_defaults_to_tls12() {
        let object = strict(&json!({"type": "Custom", "custom": {"ciphers": ["AES128-SHA"]}}));
        assert_eq!(
            settings(&object).flags(),
            vec![
                "--tls-cipher-suites=TLS_RSA_WITH_AES_128_CBC_SHA".to_owned(),
                "--tls-min-version=VersionTLS12".to_owned(),
            ]
        );
    }

    #[test]
    fn custom_profile_without_block_is_an_error() {
        let message = error(&strict(&json!({"type": "Custom"})));
        assert_eq!(
            message,
            "spec.tlsSecurityProfile.custom: required when spec.tlsSecurityProfile.type is \"Custom\""
        );
        let message = error(&strict(&json!({"type": "Custom", "custom": null})));
        assert!(
            message.starts_with("spec.tlsSecurityProfile.custom: required"),
            "{message}"
        );
    }

    #[test]
    fn unknown_profile_type_is_an_error() {
        let message = error(&strict(&json!({"type": "Foo"})));
        assert_eq!(
            message,
            "spec.tlsSecurityProfile.type: unknown profile \"Foo\""
        );
    }

    #[test]
    fn unknown_profile_type_is_an_error_even_when_not_honoured() {
        let object = apiserver(&json!({"tlsSecurityProfile": {"type": "Foo"}}));
        assert_eq!(
            error(&object),
            "spec.tlsSecurityProfile.type: unknown profile \"Foo\""
        );
    }

    #[test]
    fn unknown_min_tls_version_is_an_error() {
        let object = strict(&json!({"type": "Custom", "custom": {"minTLSVersion": "TLSv1.2"}}));
        assert_eq!(
            error(&object),
            "spec.tlsSecurityProfile.custom.minTLSVersion: unknown TLS version \"TLSv1.2\""
        );
    }

    #[test]
    fn wrong_types_are_errors_naming_the_field() {
        let cases = [
            (
                json!("cluster"),
                "apiserver: expected an object, got a string",
            ),
            (
                json!({"kind": "Infrastructure"}),
                "kind: expected \"APIServer\", got \"Infrastructure\"",
            ),
            (json!({"spec": []}), "spec: expected an object, got a list"),
            (
                apiserver(&json!({"tlsAdherence": true})),
                "spec.tlsAdherence: expected a string, got a boolean",
            ),
            (
                apiserver(&json!({"tlsSecurityProfile": "Modern"})),
                "spec.tlsSecurityProfile: expected an object, got a string",
            ),
            (
                strict(&json!({"type": 3})),
                "spec.tlsSecurityProfile.type: expected a string, got a number",
            ),
            (
                strict(&json!({"type": "Custom", "custom": "x"})),
                "spec.tlsSecurityProfile.custom: expected an object, got a string",
            ),
            (
                strict(&json!({"type": "Custom", "custom": {"ciphers": "AES128-SHA"}})),
                "spec.tlsSecurityProfile.custom.ciphers: expected a list, got a string",
            ),
            (
                strict(&json!({"type": "Custom", "custom": {"ciphers": ["AES128-SHA", 7]}})),
                "spec.tlsSecurityProfile.custom.ciphers[1]: expected a string, got a number",
            ),
            (
                strict(&json!({"type": "Custom", "custom": {"minTLSVersion": 12}})),
                "spec.tlsSecurityProfile.custom.minTLSVersion: expected a string, got a number",
            ),
        ];
        for (object, expected) in cases {
            assert_eq!(error(&object), expected);
        }
    }

    #[test]
    fn parses_apiserver_yaml() {
        let text = "apiVersion: config.openshift.io/v1\nkind: APIServer\nmetadata:\n  name: cluster\nspec:\n  tlsAdherence: StrictAllComponents\n  tlsSecurityProfile:\n    type: Custom\n    custom:\n      minTLSVersion: VersionTLS12\n      ciphers:\n      - ECDHE-RSA-AES256-GCM-SHA384\n";
        let docs = ccm_catalogue::yaml::documents(text).expect("valid YAML");
        let settings = settings(&docs[0]);
        assert_eq!(
            settings.flags(),
            vec![
                "--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384".to_owned(),
                "--tls-min-version=VersionTLS12".to_owned(),
            ]
        );
    }

    #[test]
    fn flags_omit_what_is_unset() {
        let empty = TlsSettings {
            min_version: String::new(),
            cipher_suites: Vec::new(),
        };
        assert_eq!(empty.flags(), Vec::<String>::new());
    }

    #[test]
    fn tables_hold_only_shell_safe_names() {
        let safe = |name: &str| {
            !name.is_empty()
                && name
                    .bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        };
        for (iana, canonical) in GO_CIPHER_SUITES {
            assert!(safe(iana) && safe(canonical), "{iana} / {canonical}");
        }
        for (_, iana) in OPENSSL_TO_IANA.iter().chain(HYPERSHIFT_OPENSSL_TO_IANA) {
            assert!(
                go_cipher_by_iana(iana).is_some(),
                "{iana} is not a Go cipher"
            );
        }
        for profile in [&OLD, &INTERMEDIATE, &MODERN] {
            assert!(TLS_VERSIONS.contains(&profile.min_tls_version));
        }
    }

    proptest::proptest! {
        #[test]
        fn only_known_names_reach_the_flags(
            ciphers in proptest::collection::vec(".{0,40}", 0..8),
            version in proptest::sample::select(vec!["", "VersionTLS10", "VersionTLS11", "VersionTLS12", "VersionTLS13"]),
        ) {
            let object = strict(&json!({
                "type": "Custom",
                "custom": {"minTLSVersion": version, "ciphers": ciphers},
            }));
            let settings = from_apiserver(Some(&object)).expect("valid custom profile");
            proptest::prop_assert!(TLS_VERSIONS.contains(&settings.min_version.as_str()));
            for cipher in &settings.cipher_suites {
                proptest::prop_assert!(GO_CIPHER_SUITES.iter().any(|(_, canonical)| canonical == cipher));
                proptest::prop_assert!(cipher.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_'));
            }
        }
    }
}
