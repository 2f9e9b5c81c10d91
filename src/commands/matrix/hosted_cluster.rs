//! The HostedCluster cases of `ccm-render matrix`: every hosted platform's CCM rendered from a
//! HostedCluster (`render --hosted-cluster`, docs/hosted.md) across the HostedCluster fields the
//! hypershift-operator's derivation reads, one folder per case,
//! `DIR/hosted/<platform>/cluster-<variant>/`. The samples are HyperShift's own
//! `hcp create cluster --render` fixtures of `testdata/hosted-cluster/` with a release image
//! (built into the binary); each variant edits the HostedCluster of the stream or the
//! hypershift-operator's environment.

use crate::config::hosted_cluster::HostedClusterFiles;
use anyhow::Result;
use camino::{Utf8Path, Utf8PathBuf};
use ccm_catalogue::json_fields::kind_of;
use serde_json::{Value, json};

/// A built-in sample: a case of `testdata/hosted-cluster/` that renders.
struct Sample {
    /// The platform's folder (`aws`).
    folder: &'static str,
    /// The stream (`hostedcluster.yaml`).
    stream: &'static str,
    /// Its ImageStream (`image-references.yaml`).
    images: &'static str,
}

macro_rules! sample {
    ($p:literal, $case:literal) => {
        Sample {
            folder: $p,
            stream: include_str!(concat!(
                "../../../testdata/hosted-cluster/",
                $p,
                "/",
                $case,
                "/hostedcluster.yaml"
            )),
            images: include_str!(concat!(
                "../../../testdata/hosted-cluster/",
                $p,
                "/",
                $case,
                "/image-references.yaml"
            )),
        }
    };
}

/// The built-in samples: each platform's minimal fixture with a release image (Azure's with
/// resource IDs HyperShift's control-plane-operator can parse).
const SAMPLES: &[Sample] = &[
    sample!("aws", "release-minimal-flags"),
    sample!("azure", "ids-minimal-flags"),
    sample!("gcp", "release-minimal-flags"),
    sample!("kubevirt", "release-minimal-flags"),
    sample!("openstack", "release-minimal-flags"),
    sample!("powervs", "release-minimal-flags"),
];

/// What a variant changes: the HostedCluster, and the hypershift-operator's environment given.
type Edit = fn(&mut Value, &mut Vec<String>);

/// The variants: what the derivation reads of a HostedCluster (its name, the annotations it
/// mirrors and those it does not, the CRD's defaults, the configuration, placement) and the
/// operator's proxy it passes on.
const VARIANTS: &[(&str, Edit)] = &[
    ("default", |_, _| {}),
    ("dotted-name", |hc, _| {
        hc["metadata"]["name"] = json!("my.hosted.cluster");
    }),
    ("annotations", |hc, _| {
        let a = &mut hc["metadata"]["annotations"];
        a["hypershift.openshift.io/aws-load-balancer-health-probe-mode"] = json!("ServiceNodePort");
        a["hypershift.openshift.io/azure-load-balancer-health-probe-mode"] =
            json!("servicenodeport");
        a["hypershift.openshift.io/shared-load-balancer-health-probe-port"] = json!("10256");
        a["hypershift.openshift.io/control-plane-priority-class"] = json!("custom-priority");
        a["hypershift.openshift.io/restart-date"] = json!("2026-01-01T00:00:00Z");
        for name in ["aws", "azure", "gcp", "kubevirt", "openstack", "powervs"] {
            a[format!(
                "resource-request-override.hypershift.openshift.io/{name}-cloud-controller-manager.cloud-controller-manager"
            )] = json!("cpu=150m,memory=100Mi");
        }
        // Not mirrored: the control plane never sees it.
        a["hypershift.openshift.io/api-server-nlb"] = json!("true");
    }),
    ("defaults-left-out", |hc, _| {
        if let Some(spec) = hc["spec"].as_object_mut() {
            for field in [
                "controllerAvailabilityPolicy",
                "infrastructureAvailabilityPolicy",
                "issuerURL",
                "olmCatalogPlacement",
                "autoscaling",
                "etcd",
            ] {
                spec.remove(field);
            }
        }
    }),
    ("modern-tls", |hc, _| {
        hc["spec"]["configuration"]["apiServer"] =
            json!({"tlsSecurityProfile": {"type": "Modern"}});
    }),
    ("techpreview", |hc, _| {
        hc["spec"]["configuration"]["featureGate"] = json!({"featureSet": "TechPreviewNoUpgrade"});
    }),
    ("scheduling", |hc, _| {
        hc["spec"]["nodeSelector"] = json!({"node-role.kubernetes.io/infra": ""});
        hc["spec"]["tolerations"] =
            json!([{"key": "infra", "operator": "Exists", "effect": "NoSchedule"}]);
        hc["spec"]["labels"] = json!({"team": "hcp"});
    }),
    ("operator-proxy", |_, env| {
        env.extend([
            "HTTP_PROXY=http://proxy.mgmt:3128".into(),
            "HTTPS_PROXY=http://proxy.mgmt:3128".into(),
            "NO_PROXY=.cluster.local,10.0.0.0/16".into(),
        ]);
    }),
];

/// Every HostedCluster case, as its folder under the hosted cases' (`<platform>/cluster-<variant>`)
/// and its inputs, the files written under `scratch`.
pub(crate) fn cases(scratch: &Utf8Path) -> Result<Vec<(Utf8PathBuf, HostedClusterFiles)>> {
    let mut out = Vec::new();
    for sample in SAMPLES {
        let docs = crate::inputs::parse_documents(sample.stream, Utf8Path::new(sample.folder))?;
        let dir = scratch.join(sample.folder);
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join("image-references.yaml"), sample.images)?;
        for (variant, edit) in VARIANTS {
            let mut env = Vec::new();
            let mut stream = String::new();
            for doc in &docs {
                let mut doc = doc.clone();
                if kind_of(&doc) == "HostedCluster" {
                    edit(&mut doc, &mut env);
                }
                if !stream.is_empty() {
                    stream.push_str("---\n");
                }
                stream.push_str(&ccm_catalogue::yaml::to_string(&doc)?);
            }
            let file = dir.join(format!("{variant}.yaml"));
            std::fs::write(&file, stream)?;
            out.push((
                Utf8PathBuf::from(sample.folder).join(format!("cluster-{variant}")),
                HostedClusterFiles {
                    hosted_cluster: file,
                    name: None,
                    images: dir.join("image-references.yaml"),
                    operator_env: env,
                },
            ));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_hosted_cluster_case_renders_a_deployment_in_its_control_plane_namespace() {
        let dir = tempfile::tempdir().expect("tempdir");
        let scratch = camino::Utf8Path::from_path(dir.path()).expect("utf8");
        let cases = super::cases(scratch).expect("cases");
        assert_eq!(cases.len(), 6 * 8);
        for (folder, files) in &cases {
            let (cfg, _) = crate::config::hosted_cluster::load(files)
                .unwrap_or_else(|e| panic!("{folder}: {e:#}"));
            let (_, tree) = crate::commands::hosted::tree_of(&cfg).expect("renders");
            let deployment = tree
                .files
                .iter()
                .find(|(p, _)| p.as_str().starts_with("manifests/deployment-"))
                .unwrap_or_else(|| panic!("{folder}: no deployment"));
            let text = String::from_utf8_lossy(&deployment.1.bytes);
            let namespace = if folder.as_str().ends_with("cluster-dotted-name") {
                "namespace: clusters-my-hosted-cluster"
            } else {
                "namespace: clusters-"
            };
            assert!(text.contains(namespace), "{folder}: {text}");
        }
    }
}
