//! What stops the hypershift-operator before it creates a HostedControlPlane, in the order it
//! stops (HyperShift `hypershift-operator/controllers/hostedcluster/hostedcluster_controller.go`,
//! `reconcile`): the Ignition service's publishing strategy; the `ValidHostedClusterConfiguration`
//! condition (`validateConfigAndClusterCapabilities`: each platform's config, the cluster ID, the
//! publishing hostnames, the networks); the `ValidReleaseImage` condition. Each is one error
//! naming the field. What these checks read from the management cluster or a registry (its
//! capabilities, the KubeVirt infrastructure cluster, the release image's version) is not known
//! offline and not checked (docs/differences-from-cccmo.md).

use anyhow::{Result, bail};
use camino::Utf8Path;
use ccm_catalogue::platform::HostedPlatform;
use serde_json::Value;

/// What the checks read besides the HostedCluster.
pub(crate) struct Context<'a> {
    /// The file, for messages.
    pub(crate) path: &'a Utf8Path,
    /// `spec.platform.type`.
    pub(crate) platform: HostedPlatform,
    /// The hypershift-operator runs with `MANAGED_SERVICE=ARO-HCP`.
    pub(crate) aro_hcp: bool,
}

/// The first reason the hypershift-operator creates no HostedControlPlane for `hc` (defaulted).
pub(crate) fn check(hc: &Value, cx: &Context<'_>) -> Result<()> {
    let spec = &hc["spec"];
    ignition(spec, cx)?;
    configuration(hc, cx)?;
    let image = spec.pointer("/release/image").and_then(Value::as_str);
    if image.is_none_or(str::is_empty) {
        bail!(
            "{}: spec.release.image is empty: the hypershift-operator creates no HostedControlPlane without a release image (ValidReleaseImage)",
            cx.path
        );
    }
    Ok(())
}

/// `spec.services`, as `(index, service, strategy)`.
fn services(spec: &Value) -> impl Iterator<Item = (usize, &str, &Value)> {
    spec.get("services")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, s)| {
            (
                i,
                s.get("service").and_then(Value::as_str).unwrap_or_default(),
                &s["servicePublishingStrategy"],
            )
        })
}

fn strategy_of<'a>(spec: &'a Value, service: &str) -> Option<(usize, &'a Value)> {
    services(spec)
        .find(|(_, s, _)| *s == service)
        .map(|(i, _, strategy)| (i, strategy))
}

fn type_of(strategy: &Value) -> &str {
    strategy
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default()
}

/// The Ignition server's endpoint: without a strategy, a NodePort one without its `nodePort`,
/// or another type, the operator logs and stops.
fn ignition(spec: &Value, cx: &Context<'_>) -> Result<()> {
    let path = cx.path;
    let Some((i, strategy)) = strategy_of(spec, "Ignition") else {
        bail!(
            "{path}: spec.services: no Ignition service: the hypershift-operator stops before it creates a HostedControlPlane (ignition server service strategy not specified)"
        );
    };
    match type_of(strategy) {
        "Route" => Ok(()),
        "NodePort" if strategy.get("nodePort").is_some_and(|n| !n.is_null()) => Ok(()),
        "NodePort" => bail!(
            "{path}: spec.services[{i}].servicePublishingStrategy.nodePort is missing for the Ignition service's NodePort strategy: the hypershift-operator stops before it creates a HostedControlPlane"
        ),
        other => bail!(
            "{path}: spec.services[{i}].servicePublishingStrategy.type: {other:?} is not a strategy for the Ignition service (Route, NodePort): the hypershift-operator stops before it creates a HostedControlPlane"
        ),
    }
}

/// `validateConfigAndClusterCapabilities`, as far as the HostedCluster alone tells.
fn configuration(hc: &Value, cx: &Context<'_>) -> Result<()> {
    let spec = &hc["spec"];
    let invalid = |field: &str, problem: &str| -> Result<()> {
        bail!(
            "{}: {field}: {problem} (ValidHostedClusterConfiguration: the hypershift-operator creates no HostedControlPlane)",
            cx.path
        )
    };
    match cx.platform {
        HostedPlatform::Aws => aws(spec, &invalid)?,
        HostedPlatform::Azure => azure(hc, cx, &invalid)?,
        // `validateAgentConfig`: the block (the agent namespace it names is the management
        // cluster's, not checked).
        HostedPlatform::Agent if spec.pointer("/platform/agent").is_none_or(Value::is_null) => {
            invalid(
                "spec.platform.agent",
                "agentcluster needs .spec.platform.agent to be filled",
            )?;
        }
        _ => {}
    }
    if let Some(id) = spec.get("clusterID").and_then(Value::as_str)
        && !id.is_empty()
        && !is_uuid(id)
    {
        invalid("spec.clusterID", &format!("cannot parse cluster ID {id:?}"))?;
    }
    let mut hostnames: Vec<(&str, &str)> = Vec::new();
    for (i, service, strategy) in services(spec) {
        let block = match type_of(strategy) {
            "LoadBalancer" => "loadBalancer",
            "Route" => "route",
            _ => continue,
        };
        let Some(host) = strategy
            .pointer(&format!("/{block}/hostname"))
            .and_then(Value::as_str)
            .filter(|h| !h.is_empty())
        else {
            continue;
        };
        if let Some((_, other)) = hostnames.iter().find(|(h, _)| *h == host) {
            invalid(
                &format!("spec.services[{i}].servicePublishingStrategy.{block}.hostname"),
                &format!(
                    "service type {service} can't be published with the same hostname {host} as service type {other}"
                ),
            )?;
        }
        hostnames.push((host, service));
    }
    if cx.platform != HostedPlatform::IbmCloud {
        super::networks::check(spec, &invalid)?;
    }
    Ok(())
}

/// `validateAWSConfig`: every endpoint but the API server is a Route; the API server is a
/// LoadBalancer, or a Route with a hostname (any of the two when the endpoint is Private).
fn aws(spec: &Value, invalid: &dyn Fn(&str, &str) -> Result<()>) -> Result<()> {
    let Some(aws) = spec.pointer("/platform/aws").filter(|v| !v.is_null()) else {
        return invalid(
            "spec.platform.aws",
            "aws cluster needs .spec.platform.aws to be filled",
        );
    };
    for service in ["Konnectivity", "OAuthServer", "Ignition"] {
        match strategy_of(spec, service) {
            None => invalid(
                "spec.services",
                &format!("service type {service} not found"),
            )?,
            Some((i, s)) if type_of(s) != "Route" => invalid(
                &format!("spec.services[{i}].servicePublishingStrategy.type"),
                &format!(
                    "service type {service} with publishing strategy {} is not supported, use Route",
                    type_of(s)
                ),
            )?,
            Some(_) => {}
        }
    }
    let Some((i, kas)) = strategy_of(spec, "APIServer") else {
        return invalid("spec.services", "service type APIServer not found");
    };
    let field = format!("spec.services[{i}].servicePublishingStrategy");
    let dedicated_dns = type_of(kas) == "Route"
        && kas
            .pointer("/route/hostname")
            .and_then(Value::as_str)
            .is_some_and(|h| !h.is_empty());
    if type_of(kas) == "Route" && !dedicated_dns {
        return invalid(
            &format!("{field}.route.hostname"),
            "if serviceType is 'APIServer' and publishing strategy is 'Route', then hostname must be set",
        );
    }
    let private = aws.get("endpointAccess").and_then(Value::as_str) == Some("Private");
    let kas_type = type_of(kas);
    if private && kas_type != "Route" && kas_type != "LoadBalancer" {
        return invalid(
            &format!("{field}.type"),
            &format!(
                "service type APIServer with publishing strategy {kas_type} is not supported, use Route"
            ),
        );
    }
    if !private && !dedicated_dns && kas_type != "LoadBalancer" {
        return invalid(
            &format!("{field}.type"),
            &format!(
                "service type APIServer with publishing strategy {kas_type} is not supported, use Route or LoadBalancer"
            ),
        );
    }
    Ok(())
}

/// `validateAzureConfig`: the Azure block, and a private topology's Private Link type (not
/// needed with Swift networking).
fn azure(hc: &Value, cx: &Context<'_>, invalid: &dyn Fn(&str, &str) -> Result<()>) -> Result<()> {
    let Some(azure) = hc.pointer("/spec/platform/azure").filter(|v| !v.is_null()) else {
        return invalid(
            "spec.platform.azure",
            "azurecluster needs .spec.platform.azure to be filled",
        );
    };
    let private_type = azure
        .pointer("/private/type")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let swift = private_type == "Swift"
        || (cx.aro_hcp
            && hc
                .pointer(
                    "/metadata/annotations/hypershift.openshift.io~1swift-pod-network-instance",
                )
                .and_then(Value::as_str)
                .is_some_and(|v| !v.is_empty()));
    let topology = azure
        .get("topology")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if !swift && !topology.is_empty() && topology != "Public" && private_type.is_empty() {
        return invalid(
            "spec.platform.azure.private.type",
            &format!("private.type is required when topology is {topology:?}"),
        );
    }
    Ok(())
}

/// What `uuid.Parse` (github.com/google/uuid) accepts: 32 hex digits, or 36 characters with
/// dashes at 8, 13, 18 and 23, optionally in braces or after `urn:uuid:`.
fn is_uuid(text: &str) -> bool {
    let hex = |s: &str| s.bytes().all(|b| b.is_ascii_hexdigit());
    let dashed = |s: &str| {
        s.len() == 36
            && s.bytes().enumerate().all(|(i, b)| {
                if matches!(i, 8 | 13 | 18 | 23) {
                    b == b'-'
                } else {
                    b.is_ascii_hexdigit()
                }
            })
    };
    match text.len() {
        32 => hex(text),
        36 => dashed(text),
        38 => text.starts_with('{') && text.ends_with('}') && dashed(&text[1..37]),
        45 => {
            text.get(..9)
                .is_some_and(|p| p.eq_ignore_ascii_case("urn:uuid:"))
                && dashed(&text[9..])
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_are_what_google_uuid_parses() {
        assert!(is_uuid("6ba7b810-9dad-11d1-80b4-00c04fd430c8"));
        assert!(is_uuid("{6ba7b810-9dad-11d1-80b4-00c04fd430c8}"));
        assert!(is_uuid("urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8"));
        assert!(is_uuid("6ba7b8109dad11d180b400c04fd430c8"));
        assert!(!is_uuid("fake-cluster-id"));
        assert!(!is_uuid("6ba7b810-9dad-11d1-80b4-00c04fd430cg"));
    }
}
