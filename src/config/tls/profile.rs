//! openshift/api's `TLSSecurityProfile` (`config/v1/types_tlssecurityprofile.go`), read once for
//! both renders: the cluster's APIServer `spec.tlsSecurityProfile` that CCCMO honours, and a
//! HostedControlPlane's `spec.configuration.apiServer.tlsSecurityProfile` that HyperShift passes.
//! Each then turns the profile into its operator's flags (`super::from_apiserver`,
//! [`super::hypershift`]).

use super::tables::{BuiltinProfile, INTERMEDIATE, MODERN, OLD, TLS_VERSIONS};
use anyhow::{Result, bail};
use ccm_catalogue::json_fields::{as_object, optional_object, optional_str, type_name};
use serde_json::{Map, Value};

/// openshift/api `TLSProfileType` (`Enum=Old;Intermediate;Modern;Custom`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TlsProfileType {
    /// `Old`.
    Old,
    /// `Intermediate`.
    Intermediate,
    /// `Modern`.
    Modern,
    /// `Custom`: the `custom` block's version and ciphers.
    Custom,
}

/// A `TLSSecurityProfile` as the API spells it, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TlsSecurityProfile {
    /// `type`; None when empty, which openshift/api's `TLSProfiles` has no entry for.
    pub(crate) profile_type: Option<TlsProfileType>,
    /// `custom`, when given (checked whatever the type, as the API server's schema does).
    pub(crate) custom: Option<ProfileSpec>,
}

/// A profile's settings: minimum version name and cipher names (OpenSSL or IANA).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ProfileSpec {
    /// One of [`TLS_VERSIONS`], or `""` when not given (each operator has its default).
    pub(crate) min_tls_version: &'static str,
    /// The cipher names, in order.
    pub(crate) ciphers: Vec<String>,
}

impl BuiltinProfile {
    /// The built-in profile's settings.
    pub(super) fn to_spec(&self) -> ProfileSpec {
        ProfileSpec {
            min_tls_version: self.min_tls_version,
            ciphers: self.ciphers.iter().map(|c| (*c).to_owned()).collect(),
        }
    }
}

impl TlsSecurityProfile {
    /// The settings the profile selects: openshift/api `TLSProfiles[type]` for a built-in type,
    /// the `custom` block for `Custom`, None for an empty type. `at` is the profile's field, for
    /// the error of a `Custom` profile without its block (controller-runtime-common's
    /// `ErrCustomProfileNil`; HyperShift dereferences the missing block).
    pub(crate) fn spec(&self, at: &str) -> Result<Option<ProfileSpec>> {
        let builtin = |profile: &BuiltinProfile| Ok(Some(profile.to_spec()));
        match self.profile_type {
            None => Ok(None),
            Some(TlsProfileType::Old) => builtin(&OLD),
            Some(TlsProfileType::Intermediate) => builtin(&INTERMEDIATE),
            Some(TlsProfileType::Modern) => builtin(&MODERN),
            Some(TlsProfileType::Custom) => match &self.custom {
                Some(custom) => Ok(Some(custom.clone())),
                None => bail!("{at}.custom: required when {at}.type is \"Custom\""),
            },
        }
    }
}

/// The Intermediate profile's settings: the default of both operators when no profile is set
/// (library-go pkg/crypto `DefaultTLSProfileType`, HyperShift `config.CipherSuites`).
pub(crate) fn intermediate() -> ProfileSpec {
    INTERMEDIATE.to_spec()
}

/// Reads the `TLSSecurityProfile` `profile`, found at the field `at`
/// (`spec.tlsSecurityProfile`); an error names the field. Input the API server would reject
/// (an unknown type or TLS version, values of the wrong type) is refused.
pub(crate) fn read(profile: &Value, at: &str) -> Result<TlsSecurityProfile> {
    let profile = as_object(profile, at)?;
    // The `custom` block is checked whenever it is present, as the API server's schema does, so
    // a typo in it is reported even while another type is selected.
    let custom = match optional_object(profile.get("custom"), &format!("{at}.custom"))? {
        None => None,
        Some(custom) => Some(read_custom(custom, &format!("{at}.custom"))?),
    };
    let field = format!("{at}.type");
    let kind = optional_str(profile.get("type"), &field)?.unwrap_or_default();
    // The `old`/`intermediate`/`modern` members are empty structs and carry nothing.
    let profile_type = match kind {
        "" => None,
        "Old" => Some(TlsProfileType::Old),
        "Intermediate" => Some(TlsProfileType::Intermediate),
        "Modern" => Some(TlsProfileType::Modern),
        "Custom" => Some(TlsProfileType::Custom),
        other => bail!("{field}: unknown profile {other:?}"),
    };
    Ok(TlsSecurityProfile {
        profile_type,
        custom,
    })
}

fn read_custom(custom: &Map<String, Value>, at: &str) -> Result<ProfileSpec> {
    let field = format!("{at}.minTLSVersion");
    let version = optional_str(custom.get("minTLSVersion"), &field)?.unwrap_or_default();
    // openshift/api: TLSProtocolVersion is Enum=VersionTLS10;VersionTLS11;VersionTLS12;VersionTLS13.
    let min_tls_version = if version.is_empty() {
        ""
    } else {
        match TLS_VERSIONS.iter().find(|name| **name == version) {
            Some(name) => name,
            None => bail!("{field}: unknown TLS version {version:?}"),
        }
    };
    let ciphers = match custom.get("ciphers") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(index, item)| match item {
                Value::String(name) => Ok(name.clone()),
                other => bail!(
                    "{at}.ciphers[{index}]: expected a string, got {}",
                    type_name(other)
                ),
            })
            .collect::<Result<_>>()?,
        Some(other) => bail!("{at}.ciphers: expected a list, got {}", type_name(other)),
    };
    Ok(ProfileSpec {
        min_tls_version,
        ciphers,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const AT: &str = "spec.configuration.apiServer.tlsSecurityProfile";

    #[test]
    fn each_type_selects_its_settings_and_an_empty_one_none() {
        let spec = |profile: Value| {
            read(&profile, AT)
                .and_then(|p| p.spec(AT))
                .expect("reads")
                .map(|s| (s.min_tls_version, s.ciphers.len()))
        };
        assert_eq!(spec(json!({"type": "Old"})), Some(("VersionTLS10", 21)));
        assert_eq!(
            spec(json!({"type": "Intermediate"})),
            Some(("VersionTLS12", 9))
        );
        assert_eq!(spec(json!({"type": "Modern"})), Some(("VersionTLS13", 3)));
        assert_eq!(
            spec(json!({"type": "Custom", "custom": {"ciphers": ["AES128-SHA"]}})),
            Some(("", 1))
        );
        assert_eq!(spec(json!({})), None);
    }

    #[test]
    fn errors_name_the_field_under_the_profiles_own() {
        let error = |profile: Value| {
            format!(
                "{:#}",
                read(&profile, AT)
                    .and_then(|p| p.spec(AT))
                    .expect_err("refused")
            )
        };
        assert_eq!(
            error(json!({"type": "Custom"})),
            format!("{AT}.custom: required when {AT}.type is \"Custom\"")
        );
        assert_eq!(
            error(json!({"type": "Strict"})),
            format!("{AT}.type: unknown profile \"Strict\"")
        );
        assert_eq!(
            error(json!({"type": "Old", "custom": {"minTLSVersion": "TLSv1"}})),
            format!("{AT}.custom.minTLSVersion: unknown TLS version \"TLSv1\"")
        );
        assert_eq!(
            error(json!({"type": "Custom", "custom": {"ciphers": [1]}})),
            format!("{AT}.custom.ciphers[0]: expected a string, got a number")
        );
        assert_eq!(
            error(json!("Old")),
            format!("{AT}: expected an object, got a string")
        );
    }
}
