//! A hosted render from a HostedCluster (`render --hosted-cluster`, docs/hosted.md): the
//! HostedControlPlane, Secrets and control-plane-operator environment the hypershift-operator
//! derives from it, as a pure function of the stream `hcp create cluster --render` prints and the
//! hypershift-operator's environment. The HostedControlPlane is then read as
//! `--hosted-control-plane` reads one, so both paths render alike from there.
//!
//! The steps, in the order HyperShift takes them: the HostedCluster as the API server stores it
//! (its CRD's defaults, `defaults.rs`, and what its schema refuses, `admission.rs`); what stops the hypershift-operator before it creates a
//! HostedControlPlane (`refusals.rs`, `networks.rs`); the HostedControlPlane it writes
//! (`control_plane.rs`), written as Go's types write it (`go_shape.rs`) and stored as the API
//! server stores that (its CRD's defaults); the Secrets its
//! platform copies into the control plane namespace, and the environment it gives the
//! control-plane-operator (here).

mod admission;
mod control_plane;
mod crd_required;
mod defaults;
mod go_shape;
mod networks;
mod refusals;

use crate::config::hosted::{HostedConfig, OperatorEnv};
use crate::inputs::credentials::{Credentials, Secret};
use crate::inputs::hosted_cluster::HostedClusterStream;
use anyhow::{Context as _, Result, anyhow};
use camino::Utf8PathBuf;
use ccm_catalogue::platform::HostedPlatform;
use serde_json::{Map, Value};

/// The input files of a render from a HostedCluster.
#[derive(Debug, Clone, Default)]
pub(crate) struct HostedClusterFiles {
    /// `--hosted-cluster`.
    pub(crate) hosted_cluster: Utf8PathBuf,
    /// `--name`.
    pub(crate) name: Option<String>,
    /// `--images`.
    pub(crate) images: Utf8PathBuf,
    /// `--operator-env`: the hypershift-operator's environment, as given.
    pub(crate) operator_env: Vec<String>,
}

/// What the hypershift-operator derives from a HostedCluster.
#[derive(Debug, Clone)]
pub(crate) struct Derived {
    /// The HostedControlPlane, as the API server stores it (keys sorted).
    pub(crate) hosted_control_plane: Value,
    /// The Secrets copied into the control plane namespace that the CCM reads.
    pub(crate) credentials: Option<Credentials>,
    /// The control-plane-operator's environment.
    pub(crate) env: OperatorEnv,
}

impl Derived {
    /// The HostedControlPlane as YAML (`--emit-hosted-control-plane`).
    pub(crate) fn to_yaml(&self) -> Result<String> {
        ccm_catalogue::yaml::to_string(&self.hosted_control_plane)
    }
}

/// Reads the files and derives: the configuration of the render, and what was derived.
pub(crate) fn load(files: &HostedClusterFiles) -> Result<(HostedConfig, Derived)> {
    let env = crate::config::hosted::operator_env::parse(&files.operator_env)?;
    let stream = crate::inputs::hosted_cluster::load(&files.hosted_cluster, files.name.as_deref())?;
    let images = crate::inputs::payload_images::load(&files.images)?;
    let derived = derive(&stream, &env)?;
    // The derived object goes through the HostedControlPlane reader's checks, as a stored one
    // would, without being written out and read back.
    let hcp = crate::inputs::hosted_control_plane::from_document(
        &derived.hosted_control_plane,
        &stream.path,
    )?;
    let cfg = HostedConfig::new(
        hcp,
        &stream.path,
        images,
        derived.credentials.clone(),
        derived.env.clone(),
    )?;
    Ok((cfg, derived))
}

/// The derivation: `operator_env` is the hypershift-operator's environment.
pub(crate) fn derive(stream: &HostedClusterStream, operator_env: &OperatorEnv) -> Result<Derived> {
    let path = &stream.path;
    let mut hc = stream.hosted_cluster.clone();
    defaults::hosted_cluster(&mut hc, stream.platform);
    admission::check(&hc, stream.platform, path)?;
    let aro_hcp = operator_env.is_aro_hcp();
    refusals::check(
        &hc,
        &refusals::Context {
            path,
            platform: stream.platform,
            aro_hcp,
        },
    )?;
    let namespace = control_plane::namespace(stream.namespace(), stream.name());
    ccm_catalogue::validate::namespace(&namespace).with_context(|| {
        format!("{path}: metadata: the control plane namespace {namespace:?} (<namespace>-<name>)")
    })?;
    let mut hcp = control_plane::object(stream, &hc);
    // Sent as Go writes it, then stored with its CRD's defaults.
    go_shape::spec(&mut hcp["spec"]);
    defaults::hosted_control_plane(&mut hcp, stream.platform);
    sort_keys(&mut hcp);
    let credentials = copied_secrets(stream, &hc, &namespace)?;
    let env = control_plane_operator_env(operator_env, &hcp)?;
    Ok(Derived {
        hosted_control_plane: hcp,
        credentials,
        env,
    })
}

/// The Secrets the platform copies into the control plane namespace that the CCM reads:
/// OpenStack's `identityRef`, with `clouds.yaml` and `cacert` only (HyperShift
/// `hypershift-operator/controllers/hostedcluster/internal/platform/openstack/openstack.go`,
/// `reconcileCloudsYaml`).
fn copied_secrets(
    stream: &HostedClusterStream,
    hc: &Value,
    namespace: &str,
) -> Result<Option<Credentials>> {
    if stream.platform != HostedPlatform::OpenStack {
        return Ok(None);
    }
    let path = &stream.path;
    let name = hc
        .pointer("/spec/platform/openstack/identityRef/name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let source = stream
        .secrets
        .iter()
        .find(|s| s.namespace == stream.namespace() && s.name == name)
        .ok_or_else(|| {
            anyhow!(
                "{path}: spec.platform.openstack.identityRef.name: no Secret {}/{name} in the stream (the hypershift-operator copies it into the control plane namespace)",
                stream.namespace()
            )
        })?;
    let data = source
        .data
        .iter()
        .filter(|(key, _)| matches!(key.as_str(), "clouds.yaml" | "cacert"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Ok(Some(Credentials {
        path: path.clone(),
        secrets: vec![Secret {
            namespace: namespace.to_string(),
            name: name.to_string(),
            data,
        }],
    }))
}

/// The control-plane-operator's environment the hypershift-operator sets from its own
/// (HyperShift `control-plane-operator/controllers/hostedcontrolplane/v2/controlplaneoperator/
/// deployment.go`): the proxy through `proxy.SetEnvVars` (`support/proxy/proxy.go`: `NO_PROXY`
/// only beside a proxy, as the sorted set of its entries and `kube-apiserver`), `MANAGED_SERVICE`
/// as it is, and the key vault client ID on an ARO HCP control plane only.
fn control_plane_operator_env(operator: &OperatorEnv, hcp: &Value) -> Result<OperatorEnv> {
    let mut vars = Vec::new();
    let (http, https) = (operator.get("HTTP_PROXY"), operator.get("HTTPS_PROXY"));
    for (name, value) in [("HTTP_PROXY", http), ("HTTPS_PROXY", https)] {
        if !value.is_empty() {
            vars.push(format!("{name}={value}"));
        }
    }
    if !http.is_empty() || !https.is_empty() {
        let mut entries: std::collections::BTreeSet<&str> = ["kube-apiserver"].into();
        let no_proxy = operator.get("NO_PROXY");
        if !no_proxy.is_empty() {
            entries.extend(no_proxy.split(','));
        }
        vars.push(format!(
            "NO_PROXY={}",
            entries.into_iter().collect::<Vec<_>>().join(",")
        ));
    }
    if !operator.get("MANAGED_SERVICE").is_empty() {
        vars.push(format!(
            "MANAGED_SERVICE={}",
            operator.get("MANAGED_SERVICE")
        ));
    }
    let key_vault = operator.get("ARO_HCP_KEY_VAULT_USER_CLIENT_ID");
    if aro_hcp_by_hcp(hcp, operator) && !key_vault.is_empty() {
        vars.push(format!("ARO_HCP_KEY_VAULT_USER_CLIENT_ID={key_vault}"));
    }
    crate::config::hosted::operator_env::parse(&vars)
}

/// HyperShift `netutil.IsAroHCPByHCP`: an Azure control plane whose authentication is
/// `ManagedIdentities`, or, with no Azure block, `MANAGED_SERVICE=ARO-HCP`.
fn aro_hcp_by_hcp(hcp: &Value, operator: &OperatorEnv) -> bool {
    let azure = HostedPlatform::Azure.as_str();
    if hcp.pointer("/spec/platform/type").and_then(Value::as_str) != Some(azure) {
        return false;
    }
    match hcp.pointer("/spec/platform/azure") {
        Some(block) if !block.is_null() => {
            block
                .pointer("/azureAuthenticationConfig/azureAuthenticationConfigType")
                .and_then(Value::as_str)
                == Some("ManagedIdentities")
        }
        _ => operator.is_aro_hcp(),
    }
}

/// Every object's keys in order, as Kubernetes' serializers write them.
fn sort_keys(value: &mut Value) {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = std::mem::take(map).into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            for (_, v) in &mut entries {
                sort_keys(v);
            }
            *map = entries.into_iter().collect::<Map<String, Value>>();
        }
        Value::Array(items) => items.iter_mut().for_each(sort_keys),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use camino::Utf8Path;

    /// Every case of `testdata/hosted-cluster/` with HyperShift's stored HostedControlPlane,
    /// the three whose render HyperShift's control-plane-operator refuses included.
    #[test]
    fn every_derivation_is_the_hosted_control_plane_hypershift_stores() {
        let base = Utf8Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/hosted-cluster");
        let mut compared = 0;
        for platform in base.read_dir_utf8().expect("testdata/hosted-cluster") {
            let platform = platform.expect("entry").path().to_owned();
            if !platform.is_dir() {
                continue;
            }
            for case in platform.read_dir_utf8().expect("cases") {
                let dir = case.expect("entry").path().to_owned();
                let Ok(want) = std::fs::read_to_string(dir.join("hcp-derived.yaml")) else {
                    continue;
                };
                let want = ccm_catalogue::yaml::one_document(&want).expect("parses");
                let stream =
                    crate::inputs::hosted_cluster::load(&dir.join("hostedcluster.yaml"), None)
                        .expect("reads");
                let derived = derive(&stream, &OperatorEnv::default()).expect("derives");
                assert_eq!(derived.hosted_control_plane, want, "{dir}");
                compared += 1;
            }
        }
        assert_eq!(compared, 16);
    }

    /// Every variant of `testdata/hosted-cluster-variants/` that HyperShift's own
    /// `reconcileHostedControlPlane` derives a HostedControlPlane for.
    #[test]
    fn every_variant_derives_what_hypershifts_reconcile_hosted_control_plane_derives() {
        let base =
            Utf8Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/hosted-cluster-variants");
        let mut compared = 0;
        for case in base
            .read_dir_utf8()
            .expect("testdata/hosted-cluster-variants")
        {
            let dir = case.expect("entry").path().to_owned();
            let Ok(want) = std::fs::read_to_string(dir.join("hcp-derived.yaml")) else {
                continue;
            };
            let want = ccm_catalogue::yaml::one_document(&want).expect("parses");
            let stream = crate::inputs::hosted_cluster::load(&dir.join("hostedcluster.yaml"), None)
                .expect("reads");
            let derived = derive(&stream, &OperatorEnv::default()).expect("derives");
            assert_eq!(derived.hosted_control_plane, want, "{dir}");
            compared += 1;
        }
        assert_eq!(compared, 59);
    }

    fn stream(text: &str) -> HostedClusterStream {
        crate::inputs::hosted_cluster::parse(text, Utf8Path::new("hc.yaml"), None).expect("reads")
    }

    const AWS: &str = "apiVersion: hypershift.openshift.io/v1beta1
kind: HostedCluster
metadata:
  name: my.cluster
  namespace: clusters
  annotations:
    hypershift.openshift.io/aws-load-balancer-health-probe-mode: Shared
    hypershift.openshift.io/control-plane-operator-image: not-mirrored
    resource-request-override.hypershift.openshift.io/cloud-controller-manager.cloud-controller-manager: cpu=1
    hypershift.openshift.io/restart-date: '2026-01-01'
  labels:
    api.openshift.com/id: abc
    other: dropped
spec:
  release: {image: quay.io/r:1}
  pullSecret: {name: ps}
  infraID: infra
  platform: {type: AWS, aws: {region: us-east-1, rolesRef: {controlPlaneOperatorARN: a, imageRegistryARN: a, ingressARN: a, kubeCloudControllerARN: a, networkARN: a, nodePoolManagementARN: a, storageARN: a}}}
  services:
  - {service: APIServer, servicePublishingStrategy: {type: LoadBalancer}}
  - {service: Ignition, servicePublishingStrategy: {type: Route}}
  - {service: Konnectivity, servicePublishingStrategy: {type: Route}}
  - {service: OAuthServer, servicePublishingStrategy: {type: Route}}
";

    #[test]
    fn names_with_dots_annotations_labels_and_defaults_are_derived_as_hypershift_does() {
        let derived = derive(&stream(AWS), &OperatorEnv::default()).expect("derives");
        let hcp = &derived.hosted_control_plane;
        assert_eq!(hcp["metadata"]["namespace"], "clusters-my-cluster");
        let annotations = hcp["metadata"]["annotations"].as_object().expect("map");
        assert_eq!(
            annotations["hypershift.openshift.io/aws-load-balancer-health-probe-mode"],
            "Shared"
        );
        assert!(!annotations.contains_key("hypershift.openshift.io/control-plane-operator-image"));
        assert_eq!(
            annotations["resource-request-override.hypershift.openshift.io/cloud-controller-manager.cloud-controller-manager"],
            "cpu=1"
        );
        assert_eq!(
            annotations["hypershift.openshift.io/previous-restart-date"],
            "2026-01-01"
        );
        assert_eq!(hcp["metadata"]["labels"]["api.openshift.com/id"], "abc");
        assert!(hcp["metadata"]["labels"].get("other").is_none());
        assert_eq!(
            hcp["metadata"]["labels"]["cluster.x-k8s.io/cluster-name"],
            "infra"
        );
        // The CRD's defaults a HostedCluster leaves out.
        assert_eq!(
            hcp["spec"]["controllerAvailabilityPolicy"],
            "HighlyAvailable"
        );
        assert_eq!(hcp["spec"]["issuerURL"], "https://kubernetes.default.svc");
        assert_eq!(hcp["spec"]["networking"]["networkType"], "OVNKubernetes");
        assert_eq!(hcp["spec"]["platform"]["aws"]["endpointAccess"], "Public");
        assert_eq!(hcp["spec"]["etcd"]["managementType"], "Managed");
    }

    #[test]
    fn the_hypershift_operators_proxy_reaches_the_control_plane_operator_as_proxy_set_env_vars_sets_it()
     {
        let env = crate::config::hosted::operator_env::parse(&[
            "HTTPS_PROXY=http://proxy:3128".into(),
            "NO_PROXY=b.example,a.example".into(),
            "ARO_HCP_KEY_VAULT_USER_CLIENT_ID=id".into(),
        ])
        .expect("parses");
        let derived = derive(&stream(AWS), &env).expect("derives");
        assert_eq!(derived.env.get("HTTPS_PROXY"), "http://proxy:3128");
        assert_eq!(
            derived.env.get("NO_PROXY"),
            "a.example,b.example,kube-apiserver"
        );
        // Not an ARO HCP control plane: the key vault's client is not passed on.
        assert_eq!(derived.env.get("ARO_HCP_KEY_VAULT_USER_CLIENT_ID"), "");
        let no_proxy =
            crate::config::hosted::operator_env::parse(&["NO_PROXY=a".into()]).expect("parses");
        let derived = derive(&stream(AWS), &no_proxy).expect("derives");
        assert_eq!(derived.env.get("NO_PROXY"), "");
    }

    #[test]
    fn what_the_hypershift_operator_refuses_names_the_field() {
        let refused = |text: String| {
            format!(
                "{:#}",
                derive(&stream(&text), &OperatorEnv::default()).expect_err("refused")
            )
        };
        assert!(
            refused(AWS.replace("{image: quay.io/r:1}", "{image: ''}"))
                .starts_with("hc.yaml: spec.release.image is empty")
        );
        assert!(
            refused(AWS.replace(", aws: {region: us-east-1, rolesRef: {controlPlaneOperatorARN: a, imageRegistryARN: a, ingressARN: a, kubeCloudControllerARN: a, networkARN: a, nodePoolManagementARN: a, storageARN: a}}", ""))
                .starts_with("hc.yaml: spec.platform.aws: aws cluster needs")
        );
        assert!(
            refused(AWS.replace("{type: LoadBalancer}", "{type: Route}"))
                .starts_with("hc.yaml: spec.services[0].servicePublishingStrategy.route.hostname:")
        );
        assert!(
            refused(AWS.replace(
                "  - {service: Ignition, servicePublishingStrategy: {type: Route}}\n",
                "  - {service: Other, servicePublishingStrategy: {type: Route}}\n"
            ))
            .starts_with("hc.yaml: spec.services: no Ignition service")
        );
        // The API server's own refusals come first.
        assert!(
            refused(AWS.replace(
                "  - {service: Ignition, servicePublishingStrategy: {type: Route}}\n",
                ""
            ))
            .starts_with("hc.yaml: spec.services: 3 services, fewer than the 4")
        );
        assert_eq!(
            refused(AWS.replace("region: us-east-1, ", "")),
            "hc.yaml: spec.platform.aws.region: Required value (the API server refuses the HostedCluster)"
        );
        assert!(
            refused(AWS.replace("  pullSecret: {name: ps}\n", ""))
                .starts_with("hc.yaml: spec.pullSecret: Required value")
        );
        assert!(
            refused(AWS.replace(
                "  infraID: infra\n",
                "  infraID: infra\n  clusterID: nope\n"
            ))
            .starts_with("hc.yaml: spec.clusterID: cannot parse cluster ID \"nope\"")
        );
        assert!(
            refused(AWS.replace(
                "{type: AWS, aws: {region: us-east-1, rolesRef: {controlPlaneOperatorARN: a, imageRegistryARN: a, ingressARN: a, kubeCloudControllerARN: a, networkARN: a, nodePoolManagementARN: a, storageARN: a}}}",
                "{type: Agent}"
            ))
            .starts_with("hc.yaml: spec.platform.agent: agentcluster needs")
        );
        let long = AWS.replace("my.cluster", &"c".repeat(60));
        assert!(refused(long).starts_with("hc.yaml: metadata: the control plane namespace"));
    }
}
