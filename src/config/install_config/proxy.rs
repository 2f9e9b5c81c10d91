//! The cluster `Proxy` the installer writes (`pkg/asset/manifests/proxy.go`): the spec from
//! `proxy:`, and, when an HTTP or HTTPS proxy is set, a status whose `noProxy` adds what the
//! cluster itself must reach directly (`BuildNoProxySet`, `createNoProxy`).

use super::{InstallConfig, Platform, types};
use crate::config::install_config::types::AzureCloud;
use anyhow::{Context as _, Result, anyhow, bail};
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// Checks `proxy:` (installconfig.go validateProxy).
pub(crate) fn check(p: &types::Proxy) -> Result<()> {
    if p.http_proxy.is_empty() && p.https_proxy.is_empty() {
        bail!("proxy: must include httpProxy or httpsProxy");
    }
    if !p.http_proxy.is_empty() {
        ccm_catalogue::validate::proxy_url(&p.http_proxy).context("proxy.httpProxy")?;
    }
    if !p.https_proxy.is_empty() {
        ccm_catalogue::validate::proxy_url(&p.https_proxy).context("proxy.httpsProxy")?;
    }
    ccm_catalogue::validate::no_proxy(&p.no_proxy).context("proxy.noProxy")
}

/// The Proxy object.
pub(crate) fn derive(ic: &InstallConfig) -> Result<Value> {
    let mut spec = json!({});
    if let Some(p) = &ic.proxy {
        for (k, v) in [
            ("httpProxy", &p.http_proxy),
            ("httpsProxy", &p.https_proxy),
            ("noProxy", &p.no_proxy),
        ] {
            if !v.is_empty() {
                spec[k] = json!(v);
            }
        }
    }
    // trustedCA is a struct without omitempty: always written, empty name when unset.
    let trusted = !ic.additional_trust_bundle.is_empty()
        && (ic.proxy.is_some() || ic.additional_trust_bundle_policy == "Always");
    spec["trustedCA"] = json!({"name": if trusted { "user-ca-bundle" } else { "" }});
    let mut status = json!({});
    if let Some(p) = &ic.proxy
        && (!p.http_proxy.is_empty() || !p.https_proxy.is_empty())
    {
        if !p.http_proxy.is_empty() {
            status["httpProxy"] = json!(p.http_proxy);
        }
        if !p.https_proxy.is_empty() {
            status["httpsProxy"] = json!(p.https_proxy);
        }
        status["noProxy"] = json!(no_proxy(ic, p)?);
    }
    Ok(json!({
        "apiVersion": "config.openshift.io/v1",
        "kind": "Proxy",
        "metadata": {"creationTimestamp": null, "name": "cluster"},
        "spec": spec,
        "status": status,
    }))
}

/// `createNoProxy`: a sorted set of localhost names, the cluster's networks, `api-int`, the
/// user's entries and the platform's metadata services; `*` alone when the user asked for `*`.
fn no_proxy(ic: &InstallConfig, p: &types::Proxy) -> Result<String> {
    if p.no_proxy == "*" {
        return Ok("*".into());
    }
    let mut set: BTreeSet<String> = ["127.0.0.1", "localhost", ".svc", ".cluster.local"]
        .into_iter()
        .map(String::from)
        .collect();
    set.extend(ic.networks.service.iter().cloned());
    let machine = ic.machine_networks.as_ref().ok_or_else(|| {
        anyhow!(
            "networking.machineNetwork: required with a proxy on PowerVS (the installer picks a random default, which goes into the Proxy's noProxy)"
        )
    })?;
    set.extend(machine.iter().cloned());
    set.extend(ic.networks.cluster.iter().map(|c| c.cidr.clone()));
    set.insert(format!("api-int.{}", ic.cluster_domain()));
    set.extend(
        p.no_proxy
            .split(',')
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .map(String::from),
    );
    // The cluster-network-operator keeps the same list (pkg/util/proxyconfig/no_proxy.go).
    if matches!(
        ic.platform,
        Platform::Aws(_) | Platform::Gcp(_) | Platform::Azure(_) | Platform::OpenStack(_)
    ) {
        set.insert("169.254.169.254".into());
    }
    match &ic.platform {
        Platform::Aws(a) if a.region == "us-east-1" => {
            set.insert(".ec2.internal".into());
        }
        Platform::Aws(a) => {
            set.insert(format!(".{}.compute.internal", a.region));
        }
        Platform::Azure(a) if a.cloud_name != AzureCloud::Public => {
            set.insert("168.63.129.16".into());
            if a.cloud_name == AzureCloud::Stack {
                set.insert(a.arm_endpoint.clone());
            }
        }
        Platform::Gcp(_) => {
            set.extend(
                [
                    "metadata",
                    "metadata.google.internal",
                    "metadata.google.internal.",
                ]
                .map(String::from),
            );
        }
        _ => {}
    }
    Ok(set.into_iter().collect::<Vec<_>>().join(","))
}
