//! The cloud config transforms: what CCCMO's cloud-config sync controller does to the installer's
//! `cloud.conf` before the cloud controller manager reads it (CCCMO `pkg/cloud/<platform>`, each `CloudConfigTransformer`), as pure functions of the
//! source text, the Infrastructure and Network objects and the enabled feature gates.
//!
//! One file per format family: [`ini`] (the gcfg reader and writer that AWS, `OpenStack` and legacy
//! vSphere share), [`schema`] (Go-struct-like typed records for JSON and YAML), and one per
//! platform rule set ([`aws`], [`azure`] for Azure and Azure Stack Hub, [`openstack`],
//! [`vsphere`]). Every other platform passes its config through unchanged.
//!
//! Where CCCMO's transforms are lossy, panic or write what their own cloud provider cannot read
//! (docs/differences-from-cccmo.md), these keep or report what they drop, return errors instead, and give the
//! same output when fed their own output.

mod aws;
mod azure;
mod context;
mod gcfg;
mod infrastructure;
pub(crate) mod ini;
mod ini_keys;
mod openstack;
mod schema;
mod vsphere;

use anyhow::Result;
use ccm_catalogue::providers::Transform;

pub use context::{Context, Transformed};
pub(crate) use openstack::missing_ca_files as openstack_missing_ca_files;

/// Transforms the `source` cloud config as CCCMO does for a provider whose descriptor names `kind`.
///
/// Errors are one line each, say what is wrong and where, and never quote a secret value.
pub fn transform(kind: Transform, source: &str, ctx: &Context<'_>) -> Result<Transformed> {
    match kind {
        Transform::Aws => aws::transform(source, ctx),
        Transform::Azure => azure::transform(source, ctx, azure::Cloud::Public),
        Transform::AzureStack => azure::transform(source, ctx, azure::Cloud::Stack),
        Transform::OpenStack => openstack::transform(source, ctx),
        Transform::VSphere => vsphere::transform(source, ctx),
        Transform::None => Ok(Transformed {
            text: source.to_owned(),
            warnings: Vec::new(),
        }),
    }
}

#[cfg(test)]
pub(crate) mod test_support {
    //! Helpers for the transforms' tests: Infrastructure objects and contexts.
    use super::Context;
    use ccm_catalogue::platform::Platform;
    use serde_json::{Value, json};

    /// A minimal Infrastructure of `platform`.
    pub(crate) fn infra(platform: &str) -> Value {
        json!({
            "apiVersion": "config.openshift.io/v1",
            "kind": "Infrastructure",
            "metadata": {"name": "cluster"},
            "spec": {"platformSpec": {"type": platform}},
            "status": {"platform": platform, "platformStatus": {"type": platform}},
        })
    }

    pub(crate) fn no_gates(_: &str) -> bool {
        false
    }

    pub(crate) fn all_gates(_: &str) -> bool {
        true
    }

    /// The platform of a test Infrastructure (`None` when it names none).
    pub(crate) fn platform_of(infra: &Value) -> Platform {
        infra["status"]["platformStatus"]["type"]
            .as_str()
            .and_then(Platform::parse)
            .unwrap_or(Platform::None)
    }

    pub(crate) fn ctx<'a>(infra: &'a Value, gates: &'a dyn Fn(&str) -> bool) -> Context<'a> {
        Context {
            platform: platform_of(infra),
            infrastructure: infra,
            network: None,
            feature_enabled: gates,
            behaviour: newest(),
        }
    }

    /// The newest release's transform behaviour.
    pub fn newest() -> &'static ccm_catalogue::releases::behaviour::CloudConfig {
        &crate::catalogue::Releases::builtin()
            .expect("built-in releases load")
            .newest()
            .behaviour
            .cloud_config
    }

    /// The `config` key of a conformance case's cloud-provider-config `ConfigMap`.
    pub(crate) fn conformance_source(platform: &str) -> String {
        let text = std::fs::read_to_string(format!(
            "{}/testdata/conformance/{platform}/cloud-provider-config.yaml",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("conformance case exists");
        let docs = ccm_catalogue::yaml::documents(&text).expect("ConfigMap parses");
        docs[0]["data"]["config"]
            .as_str()
            .expect("ConfigMap has data.config")
            .to_owned()
    }

    pub(crate) fn conformance_yaml(path: &str) -> Value {
        let text = std::fs::read_to_string(format!(
            "{}/testdata/conformance/{path}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("conformance file exists");
        ccm_catalogue::yaml::documents(&text)
            .expect("parses")
            .remove(0)
    }

    pub(crate) fn conformance_expected(platform: &str) -> String {
        std::fs::read_to_string(format!(
            "{}/testdata/conformance/{platform}/expected/cloud.conf",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("expected cloud.conf exists")
    }
}

#[cfg(test)]
mod tests {
    use super::context::require_platform;
    use super::test_support::*;
    use super::*;
    use ccm_catalogue::platform::Platform;
    use pretty_assertions::assert_eq;

    #[test]
    fn transform_names_match_the_provider_descriptors() {
        for (kind, name) in [
            (Transform::Aws, "aws"),
            (Transform::Azure, "azure"),
            (Transform::AzureStack, "azurestack"),
            (Transform::OpenStack, "openstack"),
            (Transform::VSphere, "vsphere"),
            (Transform::None, "none"),
        ] {
            let json = serde_json::to_value(kind).expect("serialises");
            assert_eq!(json, name);
            let back: Transform = serde_json::from_value(json).expect("deserialises");
            assert_eq!(back, kind);
        }
    }

    #[test]
    fn other_platforms_pass_through_byte_for_byte() {
        for platform in ["gcp", "ibmcloud", "powervs", "nutanix"] {
            let infra = conformance_yaml(&format!("{platform}/infrastructure.yaml"));
            let source = conformance_source(platform);
            let out = transform(Transform::None, &source, &ctx(&infra, &no_gates))
                .expect("passes through");
            assert_eq!(out.text, conformance_expected(platform), "{platform}");
            assert!(out.warnings.is_empty());
        }
    }

    #[test]
    fn platform_check_refuses_another_platform_naming_both() {
        let infra = infra("AWS");
        let aws = ctx(&infra, &no_gates);
        assert!(require_platform(&aws, Platform::Aws, Transform::Aws).is_ok());
        let err = format!(
            "{:#}",
            require_platform(&aws, Platform::VSphere, Transform::VSphere)
                .expect_err("wrong platform")
        );
        assert!(
            err.contains("needs an Infrastructure of platform VSphere") && err.contains("\"AWS\""),
            "{err}"
        );
    }
}
