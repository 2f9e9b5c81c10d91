//! `--hosted-cluster`: the stream `hcp create cluster <platform> --render` prints (HyperShift
//! `cmd/cluster/core/create.go`): a Namespace, the Secrets the cluster names (pull secret,
//! credentials, encryption key), the `hypershift.openshift.io/v1beta1` HostedCluster and its
//! NodePools. The HostedCluster is kept whole (the derivation of its HostedControlPlane copies
//! most of its spec as it is, `config/hosted_cluster/`), with its `spec.platform.type` parsed
//! here once; of the Secrets, what a Secret reader keeps; of the NodePools, the two facts the
//! hypershift-operator reads from them. Every other kind is read past.

use super::credentials::Secret;
use super::{check_api_version, read_text, shown};
use anyhow::{Context as _, Result, anyhow, bail};
use camino::{Utf8Path, Utf8PathBuf};
use ccm_catalogue::json_fields::{kind_of, name_of, type_name};
use ccm_catalogue::platform::HostedPlatform;
use serde_json::Value;

/// The HyperShift API group of HostedCluster and NodePool.
const GROUP: &str = "hypershift.openshift.io";

/// What the stream holds for the HostedCluster chosen.
#[derive(Debug, Clone)]
pub(crate) struct HostedClusterStream {
    /// The file, for messages.
    pub(crate) path: Utf8PathBuf,
    /// The HostedCluster, whole.
    pub(crate) hosted_cluster: Value,
    /// Its `spec.platform.type`.
    pub(crate) platform: HostedPlatform,
    /// Every Secret of the stream, in stream order.
    pub(crate) secrets: Vec<Secret>,
    /// The NodePools of the chosen HostedCluster (its namespace, its `spec.clusterName`).
    pub(crate) node_pools: Vec<NodePool>,
}

impl HostedClusterStream {
    /// `metadata.namespace` of the HostedCluster.
    pub(crate) fn namespace(&self) -> &str {
        self.hosted_cluster
            .pointer("/metadata/namespace")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }

    /// `metadata.name` of the HostedCluster.
    pub(crate) fn name(&self) -> &str {
        name_of(&self.hosted_cluster)
    }
}

/// What the hypershift-operator reads from a NodePool before it writes the HostedControlPlane
/// (`isAutoscalingNeeded`, `isAWSNodeTerminationHandlerNeeded` in HyperShift
/// `hypershift-operator/controllers/hostedcluster/hostedcluster_controller.go`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NodePool {
    /// `spec.autoScaling` is set.
    pub(crate) autoscaling: bool,
    /// `spec.platform.aws.placement.marketType: Spot`, or the `enable-spot` annotation.
    pub(crate) spot: bool,
}

/// Reads `--hosted-cluster`; `name` (`NAMESPACE/NAME`, from `--name`) picks one of several
/// HostedClusters.
pub(crate) fn load(path: &Utf8Path, name: Option<&str>) -> Result<HostedClusterStream> {
    parse(&read_text(path)?, path, name)
}

/// [`load`] on text already read (`path` only names it in errors).
pub(crate) fn parse(
    text: &str,
    path: &Utf8Path,
    name: Option<&str>,
) -> Result<HostedClusterStream> {
    let docs =
        super::credentials::documents_holding_secrets(text, path, "the stream holds Secrets")?;
    let hosted_cluster = pick(&docs, path, name)?;
    check(&hosted_cluster, path)?;
    let platform = platform_of(&hosted_cluster, path)?;
    let mut secrets = Vec::new();
    let mut node_pools = Vec::new();
    let namespace = hosted_cluster
        .pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .unwrap_or_default();
    for doc in &docs {
        match kind_of(doc) {
            "Secret" => secrets.push(super::credentials::secret(doc, path)?),
            "NodePool" => {
                if let Some(pool) = node_pool(doc, namespace, name_of(&hosted_cluster), path)? {
                    node_pools.push(pool);
                }
            }
            _ => {}
        }
    }
    Ok(HostedClusterStream {
        path: path.to_owned(),
        hosted_cluster,
        platform,
        secrets,
        node_pools,
    })
}

/// The one HostedCluster of the stream, or the one `--name` names.
fn pick(docs: &[Value], path: &Utf8Path, name: Option<&str>) -> Result<Value> {
    let clusters: Vec<&Value> = docs
        .iter()
        .filter(|d| kind_of(d) == "HostedCluster")
        .collect();
    let id = |d: &Value| {
        let ns = d
            .pointer("/metadata/namespace")
            .and_then(Value::as_str)
            .unwrap_or_default();
        format!("{ns}/{}", name_of(d))
    };
    if let Some(wanted) = name {
        if !wanted.contains('/') {
            bail!("--name {}: expected NAMESPACE/NAME", shown(wanted));
        }
        return clusters
            .into_iter()
            .find(|d| id(d) == wanted)
            .cloned()
            .ok_or_else(|| {
                anyhow!(
                    "--name {}: no HostedCluster of that name in {path}",
                    shown(wanted)
                )
            });
    }
    match clusters.as_slice() {
        [] => {
            let mut kinds: Vec<String> = docs.iter().map(|d| shown(kind_of(d))).collect();
            kinds.sort_unstable();
            kinds.dedup();
            if kinds.is_empty() {
                bail!("{path}: no HostedCluster object (the file holds no document)");
            }
            bail!(
                "{path}: no HostedCluster object (the file holds {})",
                kinds.join(", ")
            )
        }
        [one] => Ok((*one).clone()),
        several => {
            let names: Vec<String> = several.iter().map(|d| shown(&id(d))).collect();
            bail!(
                "{path}: {} HostedCluster objects ({}); pick one with --name NAMESPACE/NAME",
                several.len(),
                names.join(", ")
            )
        }
    }
}

/// What the API server requires of a HostedCluster before anything reads it.
fn check(hc: &Value, path: &Utf8Path) -> Result<()> {
    check_api_version(hc, GROUP, &["v1beta1"], path)?;
    for field in ["name", "namespace"] {
        match hc.pointer(&format!("/metadata/{field}")) {
            Some(Value::String(s)) if !s.is_empty() => {}
            None | Some(Value::Null) => bail!("{path}: metadata.{field} is missing"),
            Some(Value::String(_)) => bail!("{path}: metadata.{field} is empty"),
            Some(other) => bail!(
                "{path}: metadata.{field}: expected a string, got {}",
                type_name(other)
            ),
        }
    }
    let namespace = hc
        .pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .unwrap_or_default();
    ccm_catalogue::validate::namespace(namespace)
        .with_context(|| format!("{path}: metadata.namespace"))?;
    ccm_catalogue::validate::dns_subdomain(name_of(hc))
        .with_context(|| format!("{path}: metadata.name"))?;
    match hc.get("spec") {
        Some(Value::Object(_)) => Ok(()),
        None | Some(Value::Null) => bail!("{path}: spec is missing"),
        Some(other) => bail!("{path}: spec: expected an object, got {}", type_name(other)),
    }
}

/// `spec.platform.type`, parsed.
fn platform_of(hc: &Value, path: &Utf8Path) -> Result<HostedPlatform> {
    match hc.pointer("/spec/platform/type") {
        None | Some(Value::Null) => bail!("{path}: spec.platform.type is missing"),
        Some(Value::String(s)) if s.is_empty() => bail!("{path}: spec.platform.type is missing"),
        Some(value) => serde_json::from_value(value.clone())
            .with_context(|| format!("{path}: spec.platform.type")),
    }
}

/// A NodePool of the HostedCluster `namespace/cluster` (HyperShift `listNodePools`: the same
/// namespace and `spec.clusterName`), or None for another cluster's.
fn node_pool(
    doc: &Value,
    namespace: &str,
    cluster: &str,
    path: &Utf8Path,
) -> Result<Option<NodePool>> {
    let name = name_of(doc);
    let ns = doc
        .pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let cluster_name = doc.pointer("/spec/clusterName").and_then(Value::as_str);
    if ns != namespace || cluster_name != Some(cluster) {
        return Ok(None);
    }
    check_api_version(doc, GROUP, &["v1beta1"], path)
        .with_context(|| format!("NodePool {}", shown(name)))?;
    let autoscaling = !matches!(doc.pointer("/spec/autoScaling"), None | Some(Value::Null));
    let spot = doc
        .pointer("/spec/platform/aws/placement/marketType")
        .and_then(Value::as_str)
        == Some("Spot")
        || doc
            .pointer("/metadata/annotations/hypershift.openshift.io~1enable-spot")
            .is_some();
    Ok(Some(NodePool { autoscaling, spot }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HC: &str = "apiVersion: hypershift.openshift.io/v1beta1\nkind: HostedCluster\nmetadata: {name: example, namespace: clusters}\nspec:\n  release: {image: quay.io/r:1}\n  platform: {type: AWS}\n";

    fn p() -> &'static Utf8Path {
        Utf8Path::new("hc.yaml")
    }

    #[test]
    fn the_hosted_cluster_its_secrets_and_node_pools_are_read_and_other_kinds_read_past() {
        let text = format!(
            "kind: Namespace\napiVersion: v1\nmetadata: {{name: clusters}}\n---\n{HC}---\napiVersion: v1\nkind: Secret\nmetadata: {{name: s, namespace: clusters}}\nstringData: {{a: b}}\n---\napiVersion: hypershift.openshift.io/v1beta1\nkind: NodePool\nmetadata: {{name: np, namespace: clusters}}\nspec: {{clusterName: example, autoScaling: {{min: 1, max: 2}}}}\n---\napiVersion: hypershift.openshift.io/v1beta1\nkind: NodePool\nmetadata: {{name: other, namespace: clusters}}\nspec: {{clusterName: other}}\n---\nkind: Whatever\n"
        );
        let stream = parse(&text, p(), None).expect("parses");
        assert_eq!(stream.platform, HostedPlatform::Aws);
        assert_eq!(stream.name(), "example");
        assert_eq!(stream.namespace(), "clusters");
        assert_eq!(stream.secrets.len(), 1);
        assert_eq!(
            stream.node_pools,
            vec![NodePool {
                autoscaling: true,
                spot: false
            }]
        );
    }

    #[test]
    fn none_two_and_a_name_not_found_are_refused() {
        let err = |text: &str, name: Option<&str>| {
            format!("{:#}", parse(text, p(), name).expect_err("refused"))
        };
        assert_eq!(
            err("kind: Namespace\napiVersion: v1\n", None),
            "hc.yaml: no HostedCluster object (the file holds Namespace)"
        );
        let two = format!("{HC}---\n{}", HC.replace("name: example", "name: other"));
        assert_eq!(
            err(&two, None),
            "hc.yaml: 2 HostedCluster objects (clusters/example, clusters/other); pick one with --name NAMESPACE/NAME"
        );
        assert_eq!(
            parse(&two, p(), Some("clusters/other"))
                .expect("picked")
                .name(),
            "other"
        );
        assert_eq!(
            err(&two, Some("clusters/nope")),
            "--name clusters/nope: no HostedCluster of that name in hc.yaml"
        );
        assert_eq!(
            err(&HC.replace("type: AWS", "type: Moon"), None),
            "hc.yaml: spec.platform.type: unknown platform \"Moon\" (known: AWS, None, IBMCloud, Agent, KubeVirt, Azure, PowerVS, OpenStack, GCP)"
        );
    }
}
