//! What the API server refuses of a HostedCluster before anything reads it: the required fields
//! of its CRD's schema (`crd_required.rs`) and the validation rules on its spec that a HostedCluster alone decides
//! (HyperShift `cmd/install/assets/crds/hypershift-operator/zz_generated.crd-manifests/
//! hostedclusters-Hypershift-Default.crd.yaml`: `required` and `x-kubernetes-validations`).
//! Checked after the CRD's defaults, as the API server checks them.

use anyhow::{Result, bail};
use camino::Utf8Path;
use ccm_catalogue::platform::HostedPlatform;
use serde_json::Value;

/// The first field the API server would refuse, as an error naming it.
pub(crate) fn check(hc: &Value, platform: HostedPlatform, path: &Utf8Path) -> Result<()> {
    let refuse = |field: &str, problem: &str| -> Result<()> {
        bail!("{path}: {field}: {problem} (the API server refuses the HostedCluster)")
    };
    let spec = &hc["spec"];
    // Every `required` and `minProperties` of the schema (`crd_required.rs`).
    if let Some((field, problem)) = super::crd_required::first_missing(
        spec,
        matches!(platform, HostedPlatform::Gcp | HostedPlatform::OpenStack),
    ) {
        refuse(&field, &problem)?;
    }
    // `release.image`'s rule `^(\w+\S+)$` (its emptiness is the hypershift-operator's
    // `ValidReleaseImage` refusal, `refusals.rs`, as HyperShift reports it).
    if let Some(image) = spec.pointer("/release/image").and_then(Value::as_str)
        && !image.is_empty()
        && !release_image_rule(image)
    {
        refuse(
            "spec.release.image",
            "Image must start with a word character (letters, digits, or underscores) and contain no white spaces",
        )?;
    }
    services(spec, platform, &refuse)
}

/// The CEL rule `self.matches('^(\\w+\\S+)$')`: a word character, then at least one character
/// that is not white space (RE2's `\w` is ASCII, its `\s` `[\t\n\f\r ]`).
fn release_image_rule(image: &str) -> bool {
    let mut chars = image.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        && image.len() > 1
        && chars.all(|c| !matches!(c, ' ' | '\t' | '\n' | '\x0c' | '\r'))
}

/// `spec.services`: at least four (three on IBM Cloud), and on Azure the
/// endpoints published as its rules say.
fn services(
    spec: &Value,
    platform: HostedPlatform,
    refuse: &dyn Fn(&str, &str) -> Result<()>,
) -> Result<()> {
    let services = spec
        .get("services")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let least = if platform == HostedPlatform::IbmCloud {
        3
    } else {
        4
    };
    if services.len() < least {
        refuse(
            "spec.services",
            &format!(
                "{} services, fewer than the {least} the HostedCluster's rules require",
                services.len()
            ),
        )?;
    }
    if platform != HostedPlatform::Azure {
        return Ok(());
    }
    let published = |name: &str, types: &[&str]| {
        services.iter().any(|s| {
            s.get("service").and_then(Value::as_str) == Some(name)
                && s.pointer("/servicePublishingStrategy/type")
                    .and_then(Value::as_str)
                    .is_some_and(|t| types.contains(&t))
        })
    };
    let workload = spec
        .pointer("/platform/azure/azureAuthenticationConfig/azureAuthenticationConfigType")
        .and_then(Value::as_str)
        == Some("WorkloadIdentities");
    let oauth: &[&str] = if workload {
        &["Route", "LoadBalancer"]
    } else {
        &["Route"]
    };
    for (name, types) in [
        ("Konnectivity", &["Route"][..]),
        ("Ignition", &["Route"]),
        ("OAuthServer", oauth),
    ] {
        if !published(name, types) {
            refuse(
                "spec.services",
                &format!(
                    "an Azure HostedCluster publishes its {name} service as {}",
                    types.join(" or ")
                ),
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_release_image_rule_is_the_crds() {
        assert!(super::release_image_rule(
            "quay.io/openshift-release-dev/ocp-release:4.19.3-x86_64"
        ));
        assert!(super::release_image_rule("fake"));
        assert!(!super::release_image_rule("f"));
        assert!(!super::release_image_rule("/image"));
        assert!(!super::release_image_rule("quay.io/x y"));
    }
}
