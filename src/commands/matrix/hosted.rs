//! The hosted cases of `ccm-render matrix`: every hosted platform's CCM (docs/hosted.md) across
//! the HyperShift golden-file variants and the HostedControlPlane fields that change it, one
//! folder per case, `DIR/hosted/<platform>/<variant>/`. The samples are the default cases of
//! `testdata/hosted/` (built into the binary); each variant edits that HostedControlPlane, the
//! operator environment or the credentials, writes the inputs as files and renders them as
//! `render --hosted-control-plane` does.

use crate::config::hosted::{HostedConfig, HostedFiles};
use crate::config::hosted_cluster::HostedClusterFiles;
use crate::output::Tree;
use anyhow::Result;
use camino::{Utf8Path, Utf8PathBuf};
use ccm_catalogue::platform::HostedPlatform;
use serde_json::{Value, json};

/// The folder of the hosted cases under `--dest-dir`.
pub(crate) const HOSTED_FOLDER: &str = "hosted";

/// A built-in sample: the default case of one platform folder of `testdata/hosted/`.
struct Sample {
    /// The platform.
    platform: HostedPlatform,
    /// Its folder (`aws`).
    folder: &'static str,
    /// Its HostedControlPlane (`hcp.yaml`).
    hcp: &'static str,
    /// Its ImageStream (`image-references.yaml`).
    images: &'static str,
    /// Its credentials (`credentials.yaml`), for the platforms that read one.
    credentials: Option<&'static str>,
}

/// The sample of a platform folder without credentials.
macro_rules! sample {
    ($platform:ident, $p:literal) => {
        Sample {
            platform: HostedPlatform::$platform,
            folder: $p,
            hcp: include_str!(concat!(
                "../../../testdata/hosted/",
                $p,
                "/default/hcp.yaml"
            )),
            images: include_str!(concat!(
                "../../../testdata/hosted/",
                $p,
                "/default/image-references.yaml"
            )),
            credentials: None,
        }
    };
}

/// The built-in samples.
const SAMPLES: &[Sample] = &[
    sample!(Aws, "aws"),
    sample!(Azure, "azure"),
    sample!(Gcp, "gcp"),
    sample!(KubeVirt, "kubevirt"),
    Sample {
        platform: HostedPlatform::OpenStack,
        folder: "openstack",
        hcp: include_str!("../../../testdata/hosted/openstack/default/hcp.yaml"),
        images: include_str!("../../../testdata/hosted/openstack/default/image-references.yaml"),
        credentials: Some(include_str!(
            "../../../testdata/hosted/openstack/default/credentials.yaml"
        )),
    },
    sample!(PowerVs, "powervs"),
];

/// What a variant changes: the HostedControlPlane, and the operator environment given.
type Edit = fn(&mut Value, &mut Vec<String>);

/// The variants: the golden files' (TLS profile, feature set, Swift annotation, advertised API
/// address) and the fields that open others (zones and subnets, probe annotations, scheduling,
/// replicas, request overrides, the operator's proxy and managed Azure).
const VARIANTS: &[(&str, Edit)] = &[
    ("default", |_, _| {}),
    ("modern-tls", |h, _| {
        h["spec"]["configuration"]["apiServer"] = json!({"tlsSecurityProfile": {"type": "Modern"}});
    }),
    ("old-tls", |h, _| {
        h["spec"]["configuration"]["apiServer"] = json!({"tlsSecurityProfile": {"type": "Old"}});
    }),
    ("custom-tls", |h, _| {
        h["spec"]["configuration"]["apiServer"] = json!({"tlsSecurityProfile": {"type": "Custom", "custom": {
            "minTLSVersion": "VersionTLS12", "ciphers": ["ECDHE-RSA-AES128-GCM-SHA256", "TLS_AES_128_GCM_SHA256"]}}});
    }),
    ("techpreview", |h, _| {
        h["spec"]["configuration"]["featureGate"] = json!({"featureSet": "TechPreviewNoUpgrade"});
    }),
    ("single-replica", |h, _| {
        h["spec"]["controllerAvailabilityPolicy"] = json!("SingleReplica");
    }),
    ("zones-subnets", zones_subnets),
    ("probe-nodeport", |h, _| {
        let a = &mut h["metadata"]["annotations"];
        a["hypershift.openshift.io/aws-load-balancer-health-probe-mode"] = json!("ServiceNodePort");
        a["hypershift.openshift.io/azure-load-balancer-health-probe-mode"] =
            json!("servicenodeport");
        a["hypershift.openshift.io/shared-load-balancer-health-probe-port"] = json!("10256");
    }),
    ("probe-shared-path-port", |h, _| {
        let a = &mut h["metadata"]["annotations"];
        a["hypershift.openshift.io/shared-load-balancer-health-probe-path"] = json!("/healthz");
        a["hypershift.openshift.io/shared-load-balancer-health-probe-port"] = json!("10256");
    }),
    ("scheduling", |h, _| {
        h["spec"]["nodeSelector"] = json!({"node-role.kubernetes.io/infra": ""});
        h["spec"]["tolerations"] =
            json!([{"key": "infra", "operator": "Exists", "effect": "NoSchedule"}]);
        h["spec"]["labels"] = json!({"team": "hcp"});
        h["metadata"]["annotations"]["hypershift.openshift.io/control-plane-priority-class"] =
            json!("custom-priority");
        h["metadata"]["annotations"]["hypershift.openshift.io/restart-date"] =
            json!("2026-01-01T00:00:00Z");
    }),
    ("request-overrides", |h, _| {
        for name in ["aws", "azure", "gcp", "kubevirt", "openstack", "powervs"] {
            h["metadata"]["annotations"][format!(
                "resource-request-override.hypershift.openshift.io/{name}-cloud-controller-manager.cloud-controller-manager"
            )] = json!("cpu=150m,memory=100Mi");
        }
    }),
    ("operator-proxy", |_, env| {
        env.extend([
            "HTTP_PROXY=http://proxy.mgmt:3128".into(),
            "HTTPS_PROXY=http://proxy.mgmt:3128".into(),
            "NO_PROXY=.cluster.local,10.0.0.0/16".into(),
        ]);
    }),
    ("managed-azure", |h, env| {
        let auth = &mut h["spec"]["platform"]["azure"]["azureAuthenticationConfig"];
        *auth = json!({"azureAuthenticationConfigType": "ManagedIdentities", "managedIdentities": {"controlPlane": {
            "cloudProvider": {"clientID": "00000000-0000-0000-0000-000000000002", "credentialsSecretName": "cloud-provider-creds", "objectEncoding": "utf-8"},
            "managedIdentitiesKeyVault": {"name": "kv", "tenantID": "00000000-0000-0000-0000-000000000000"}}}});
        env.extend([
            "MANAGED_SERVICE=ARO-HCP".into(),
            "ARO_HCP_KEY_VAULT_USER_CLIENT_ID=00000000-0000-0000-0000-0000000000aa".into(),
        ]);
    }),
];

/// Zones, subnets and networks of each platform, and an external KubeVirt infrastructure.
fn zones_subnets(h: &mut Value, _: &mut Vec<String>) {
    let p = &mut h["spec"]["platform"];
    p["aws"]["cloudProviderConfig"] =
        json!({"zone": "us-east-1a", "vpc": "vpc-0123", "subnet": {"id": "subnet-0123"}});
    p["azure"]["subnetID"] = json!(
        "/subscriptions/s/resourceGroups/net-rg/providers/Microsoft.Network/virtualNetworks/vnet/subnets/workers"
    );
    p["openstack"]["externalNetwork"] = json!({"id": "ext-net-id"});
    p["powervs"]["vpc"] = json!({"name": "vpc", "region": "us-south", "subnet": "subnet-a"});
    p["kubevirt"] = json!({"credentials": {"infraNamespace": "guests", "infraKubeConfigSecret": {"name": "infra", "key": "kubeconfig"}}});
    h["spec"]["networking"]["machineNetwork"] =
        json!([{"cidr": "10.0.0.0/16"}, {"cidr": "fd00::/48"}]);
    h["spec"]["infraID"] = json!("demo-7xk2p");
}

/// One hosted case.
#[derive(Debug, Clone)]
pub(crate) struct HostedCase {
    /// `hosted/<platform>/<variant>`.
    pub(crate) folder: Utf8PathBuf,
    /// Its inputs.
    pub(crate) inputs: HostedInputs,
}

/// A hosted case's inputs, as a `render` command line would give them.
#[derive(Debug, Clone)]
pub(crate) enum HostedInputs {
    /// `render --hosted-control-plane`.
    ControlPlane(HostedFiles),
    /// `render --hosted-cluster` (`matrix/hosted_cluster.rs`).
    Cluster(HostedClusterFiles),
}

/// Every hosted case, its input files written under `scratch`: those from a HostedControlPlane,
/// then those from a HostedCluster (`matrix/hosted_cluster.rs`).
pub(crate) fn cases(scratch: &Utf8Path) -> Result<Vec<HostedCase>> {
    let mut out = control_plane_cases(scratch)?;
    let clusters = super::hosted_cluster::cases(&scratch.join(HOSTED_FOLDER).join("cluster"))?;
    out.extend(clusters.into_iter().map(|(folder, files)| HostedCase {
        folder: Utf8PathBuf::from(HOSTED_FOLDER).join(folder),
        inputs: HostedInputs::Cluster(files),
    }));
    Ok(out)
}

/// The cases from a HostedControlPlane.
fn control_plane_cases(scratch: &Utf8Path) -> Result<Vec<HostedCase>> {
    let mut out = Vec::new();
    for &Sample {
        platform,
        folder,
        hcp,
        images,
        credentials,
    } in SAMPLES
    {
        let base = crate::inputs::parse_documents(hcp, Utf8Path::new(folder))?
            .into_iter()
            .next()
            .unwrap_or_default();
        let dir = scratch.join(HOSTED_FOLDER).join(folder);
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join("image-references.yaml"), images)?;
        if let Some(credentials) = credentials {
            std::fs::write(dir.join("credentials.yaml"), credentials)?;
        }
        for (variant, edit) in VARIANTS {
            if *variant == "managed-azure" && platform != HostedPlatform::Azure {
                continue;
            }
            let mut hcp = base.clone();
            let mut env = Vec::new();
            edit(&mut hcp, &mut env);
            let file = dir.join(format!("{variant}.yaml"));
            std::fs::write(&file, ccm_catalogue::yaml::to_string(&hcp)?)?;
            out.push(HostedCase {
                folder: Utf8PathBuf::from(HOSTED_FOLDER).join(folder).join(variant),
                inputs: HostedInputs::ControlPlane(HostedFiles {
                    hosted_control_plane: file,
                    images: dir.join("image-references.yaml"),
                    credentials: credentials.map(|_| dir.join("credentials.yaml")),
                    operator_env: env,
                }),
            });
        }
    }
    Ok(out)
}

/// The configuration of one case, read as `render` reads its inputs.
pub(crate) fn config_of(case: &HostedCase) -> Result<HostedConfig> {
    match &case.inputs {
        HostedInputs::ControlPlane(files) => HostedConfig::load(files),
        HostedInputs::Cluster(files) => {
            crate::config::hosted_cluster::load(files).map(|(cfg, _)| cfg)
        }
    }
}

/// Renders one case as `render --hosted-control-plane` or `--hosted-cluster` does.
pub(crate) fn render_case(case: &HostedCase) -> Result<Tree> {
    super::super::hosted::tree_of(&config_of(case)?).map(|(_, tree)| tree)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_hosted_case_renders_a_deployment() {
        let dir = tempfile::tempdir().expect("tempdir");
        let scratch = camino::Utf8Path::from_path(dir.path()).expect("utf8");
        let cases = super::control_plane_cases(scratch).expect("cases");
        assert_eq!(cases.len(), 6 * 12 + 1);
        for case in &cases {
            let tree =
                super::render_case(case).unwrap_or_else(|e| panic!("{}: {e:#}", case.folder));
            assert!(
                tree.files
                    .keys()
                    .any(|p| p.as_str().starts_with("manifests/deployment-")),
                "{}",
                case.folder
            );
        }
    }
}
