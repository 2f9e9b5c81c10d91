//! vSphere's cloud config in the YAML form the installer of 4.18 and 4.19 writes:
//! `vsphere.CloudProviderConfigYaml` (`pkg/asset/manifests/vsphere/cloudproviderconfig.go`, as
//! openshift/installer-aro-wrapper vendors it on `release-4.18`, installer 14cd7a64e088, and
//! `release-4.19`, installer 7e30b7d6b421): gopkg.in/yaml.v2 of k8s.io/cloud-provider-vsphere's
//! `CommonConfigYAML` (`pkg/common/config/types_yaml.go`), whose fields carry no `omitempty`,
//! so every one is written, zero values included, in the structs' field order; untagged fields
//! take their lower-cased Go name (`tenantref`, `secretref`). The vCenters are a map, written
//! sorted by server.
//!
//! 4.18 writes it when the `VSphereMultiVCenters` gate is on (openshift/api 4.18 enables it in
//! Default, TechPreviewNoUpgrade and DevPreviewNoUpgrade), the INI form otherwise; 4.19 always.
//! Which YAML form 4.20 and later write was not established (docs/differences-from-cccmo.md):
//! they keep the INI form here.

use super::super::VSphere;
use super::super::feature_gate::Selection;
use ccm_catalogue::releases::data::Version;
use std::fmt::Write as _;

/// Whether the installer of `release` writes the YAML form for this install-config.
pub(crate) fn writes_yaml(release: Option<Version>, features: &Selection) -> bool {
    match release {
        Some(r) if r == Version::new(4, 18) => features.is_enabled(
            "VSphereMultiVCenters",
            &["", "TechPreviewNoUpgrade", "DevPreviewNoUpgrade"],
        ),
        Some(r) => r == Version::new(4, 19),
        None => false,
    }
}

/// The YAML text.
pub(crate) fn config(p: &VSphere) -> String {
    let mut out = String::from("global:\n");
    for (key, value) in [
        ("user", "\"\""),
        ("password", "\"\""),
        ("server", "\"\""),
        ("port", "0"),
        ("insecureFlag", "true"),
        ("datacenters", "[]"),
        ("soapRoundtripCount", "0"),
        ("caFile", "\"\""),
        ("thumbprint", "\"\""),
        ("secretName", "vsphere-creds"),
        ("secretNamespace", "kube-system"),
        ("secretsDirectory", "\"\""),
        ("apiDisable", "false"),
        ("apiBinding", "\"\""),
        ("ipFamily", "[]"),
    ] {
        let _ = writeln!(out, "  {key}: {value}");
    }
    out.push_str("vcenter:\n");
    let mut vcenters: Vec<_> = p.vcenters.iter().collect();
    vcenters.sort_by(|a, b| a.server.cmp(&b.server));
    vcenters.dedup_by(|a, b| a.server == b.server);
    if vcenters.is_empty() {
        out.truncate(out.len() - 1);
        out.push_str(" {}\n");
    }
    for vc in vcenters {
        let port = if vc.port == 0 { 443 } else { vc.port };
        let _ = writeln!(out, "  {}:", scalar(&vc.server));
        let _ = writeln!(
            out,
            "    user: \"\"\n    password: \"\"\n    tenantref: \"\""
        );
        let _ = writeln!(out, "    server: {}", scalar(&vc.server));
        let _ = writeln!(out, "    port: {port}\n    insecureFlag: true");
        if vc.datacenters.is_empty() {
            out.push_str("    datacenters: []\n");
        } else {
            out.push_str("    datacenters:\n");
            for dc in &vc.datacenters {
                let _ = writeln!(out, "    - {}", scalar(dc));
            }
        }
        out.push_str("    soapRoundtripCount: 0\n    caFile: \"\"\n    thumbprint: \"\"\n");
        out.push_str("    secretref: \"\"\n    secretName: \"\"\n    secretNamespace: \"\"\n");
        out.push_str("    ipFamily: []\n");
    }
    let (zone, region) = if p.failure_domains.len() > 1 {
        ("openshift-zone", "openshift-region")
    } else {
        ("\"\"", "\"\"")
    };
    let _ = write!(out, "labels:\n  zone: {zone}\n  region: {region}\n");
    out
}

/// A string as yaml.v2 writes it: plain when it reads back as the same string, else double
/// quoted. Plain here means printable ASCII of letters, digits and `._/-` (and inner spaces),
/// not starting with `-` or `.`, and not a YAML 1.1 boolean, null or number.
fn scalar(value: &str) -> String {
    let plain = !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '/' | '-' | ' '))
        && !value.starts_with(['-', '.', ' '])
        && !value.ends_with(' ')
        && !resolves_to_non_string(value);
    if plain {
        value.to_string()
    } else {
        serde_json::to_string(value).unwrap_or_default()
    }
}

/// yaml.v2's `resolve`: the YAML 1.1 booleans and nulls, and what parses as a number.
fn resolves_to_non_string(value: &str) -> bool {
    const WORDS: &[&str] = &[
        "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false",
        "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL", "~",
    ];
    WORDS.contains(&value)
        || value.parse::<f64>().is_ok()
        || value.replace('_', "").parse::<i64>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_plain_unless_they_would_read_back_otherwise() {
        assert_eq!(scalar("vcenter.example.com"), "vcenter.example.com");
        assert_eq!(scalar("10.0.0.1"), "10.0.0.1");
        assert_eq!(scalar("DC 1"), "DC 1");
        assert_eq!(scalar("yes"), "\"yes\"");
        assert_eq!(scalar("123"), "\"123\"");
        assert_eq!(scalar("a:b"), "\"a:b\"");
    }

    #[test]
    fn the_form_follows_the_release_and_the_4_18_gate() {
        let set = |name: &str| Selection {
            feature_set: name.into(),
            ..Selection::default()
        };
        let at = |minor| Some(Version::new(4, minor));
        assert!(writes_yaml(at(18), &set("")));
        assert!(!writes_yaml(at(18), &set("OKD")));
        assert!(!writes_yaml(at(18), &set("CustomNoUpgrade")));
        assert!(writes_yaml(at(19), &set("OKD")));
        assert!(!writes_yaml(at(20), &set("")));
        assert!(!writes_yaml(None, &set("")));
    }
}
