//! The HostedControlPlane the hypershift-operator writes for a HostedCluster:
//! `reconcileHostedControlPlane` and `reconcileHostedControlPlaneAnnotations` in HyperShift
//! `hypershift-operator/controllers/hostedcluster/hostedcluster_controller.go`, on a
//! HostedCluster as the API server stores it (its CRD's defaults applied), written as Go's
//! `encoding/json` writes the HostedControlPlane type (`api/hypershift/v1beta1/
//! hosted_controlplane.go`: the fields without `omitempty` are always there).

use crate::inputs::hosted_cluster::{HostedClusterStream, NodePool};
use ccm_catalogue::platform::HostedPlatform;
use serde_json::{Map, Value, json};

/// The annotations copied from the HostedCluster when it has them and removed otherwise
/// (`mirroredAnnotations`).
const MIRRORED_ANNOTATIONS: &[&str] = &[
    "hypershift.openshift.io/disable-pki-reconciliation",
    "oauth.hypershift.openshift.io/login-url-override",
    "hypershift.openshift.io/konnectivity-agent-image",
    "hypershift.openshift.io/konnectivity-server-image",
    "hypershift.openshift.io/cluster-autoscaler-image",
    "hypershift.openshift.io/ibmcloud-kms-provider-image",
    "hypershift.openshift.io/aws-kms-provider-image",
    "hypershift.openshift.io/portieris-image",
    "hypershift.openshift.io/debug-deployments",
    "hypershift.openshift.io/disable-profiling",
    "hypershift.openshift.io/private-ingress-controller",
    "hypershift.openshift.io/ingress-controller-load-balancer-scope",
    "hypershift.openshift.io/cleanup-cloud-resources",
    "hypershift.openshift.io/control-plane-priority-class",
    "hypershift.openshift.io/api-critical-priority-class",
    "hypershift.openshift.io/etcd-priority-class",
    "hypershift.openshift.io/ensureexists-pullsecret-reconcile",
    "hypershift.openshift.io/topology",
    "hypershift.openshift.io/disable-machine-management",
    "hypershift.openshift.io/certified-operators-catalog-image",
    "hypershift.openshift.io/community-operators-catalog-image",
    "hypershift.openshift.io/redhat-marketplace-catalog-image",
    "hypershift.openshift.io/redhat-operators-catalog-image",
    "hypershift.openshift.io/olm-catalogs-is-registry-overrides",
    "hypershift.openshift.io/kube-apiserver-gogc",
    "hypershift.openshift.io/kube-apiserver-gomemlimit",
    "hypershift.openshift.io/request-serving-node-additional-selector",
    "hypershift.openshift.io/aws-load-balancer-subnets",
    "hypershift.openshift.io/aws-load-balancer-target-node-labels",
    "hypershift.openshift.io/aws-load-balancer-health-probe-mode",
    "hypershift.openshift.io/azure-load-balancer-health-probe-mode",
    "hypershift.openshift.io/shared-load-balancer-health-probe-path",
    "hypershift.openshift.io/shared-load-balancer-health-probe-port",
    "hypershift.openshift.io/management-platform",
    "hypershift.openshift.io/kube-apiserver-verbosity-level",
    "hypershift.openshift.io/kube-apiserver-max-requests-inflight",
    "hypershift.openshift.io/kube-apiserver-max-mutating-requests-inflight",
    "hypershift.openshift.io/disable-ignition-server",
    "hypershift.openshift.io/aws-machine-public-ips",
    "hypershift.openshift.io/aws-karpenter-default-instance-profile",
    "hypershift.openshift.io/karpenter-provider-aws-image",
    "hypershift.openshift.io/karpenter-operator-image",
    "hypershift.openshift.io/kube-apiserver-goaway-chance",
    "hypershift.openshift.io/kube-apiserver-service-account-token-max-expiration",
    "hypershift.openshift.io/restored-from-backup",
    "hypershift.openshift.io/aws-termination-handler-queue-url",
    "hypershift.openshift.io/swift-pod-network-instance",
    ENABLE_METRICS_FORWARDING,
];

/// The prefixes of annotations copied all alike (`prefixesToSync`: identity provider and
/// resource request overrides).
const MIRRORED_PREFIXES: &[&str] = &[
    "idpoverrides.hypershift.openshift.io/",
    "resource-request-override.hypershift.openshift.io",
];

/// `hyperv1.EnableMetricsForwarding`.
const ENABLE_METRICS_FORWARDING: &str = "hypershift.openshift.io/enable-metrics-forwarding";
/// `hyperv1.RestartDateAnnotation`.
const RESTART_DATE: &str = "hypershift.openshift.io/restart-date";
/// `previouslySyncedRestartDateAnnotation`.
const PREVIOUS_RESTART_DATE: &str = "hypershift.openshift.io/previous-restart-date";
/// `apiOpenShiftComLabelPrefix`: the labels OCM manages, copied.
const OCM_LABEL_PREFIX: &str = "api.openshift.com/";

/// The control plane namespace of a HostedCluster (HyperShift
/// `hypershift-operator/controllers/manifests/manifests.go` `HostedControlPlaneNamespace`).
pub(crate) fn namespace(cluster_namespace: &str, cluster_name: &str) -> String {
    format!("{cluster_namespace}-{}", cluster_name.replace('.', "-"))
}

/// The HostedControlPlane of `hc` (defaulted already), before its own CRD's defaults.
pub(crate) fn object(stream: &HostedClusterStream, hc: &Value) -> Value {
    let spec = &hc["spec"];
    let mut hcp_spec = copied_spec(spec, stream.platform);
    let mut annotations = annotations(stream, hc);
    metrics_forwarding(&mut hcp_spec, &mut annotations, hc);
    let mut metadata = Map::new();
    metadata.insert(
        "annotations".into(),
        Value::Object(annotations.into_iter().collect()),
    );
    let labels = labels(hc, stream.platform);
    if !labels.is_empty() {
        metadata.insert("labels".into(), Value::Object(labels));
    }
    metadata.insert("name".into(), json!(stream.name()));
    metadata.insert(
        "namespace".into(),
        json!(namespace(stream.namespace(), stream.name())),
    );
    json!({
        "apiVersion": "hypershift.openshift.io/v1beta1",
        "kind": "HostedControlPlane",
        "metadata": metadata,
        "spec": hcp_spec,
        // HostedControlPlaneStatus as Go writes it empty: `ready`, `initialized` and
        // `controlPlaneEndpoint` (host, port) have no omitempty.
        "status": {"controlPlaneEndpoint": {"host": "", "port": 0}, "initialized": false, "ready": false},
    })
}

/// The annotations (`reconcileHostedControlPlaneAnnotations` on a new HostedControlPlane).
fn annotations(
    stream: &HostedClusterStream,
    hc: &Value,
) -> std::collections::BTreeMap<String, Value> {
    let given = hc
        .pointer("/metadata/annotations")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut out = std::collections::BTreeMap::new();
    out.insert(
        "hypershift.openshift.io/cluster".to_string(),
        json!(format!("{}/{}", stream.namespace(), stream.name())),
    );
    for (key, value) in &given {
        if MIRRORED_ANNOTATIONS.contains(&key.as_str())
            || MIRRORED_PREFIXES.iter().any(|p| key.starts_with(p))
        {
            out.insert(key.clone(), value.clone());
        }
    }
    // The restart date is copied once, with the value it was copied with beside it.
    if let Some(date) = given.get(RESTART_DATE).filter(|d| d.as_str() != Some("")) {
        out.insert(RESTART_DATE.into(), date.clone());
        out.insert(PREVIOUS_RESTART_DATE.into(), date.clone());
    }
    // The certificate renewal annotations (`annotationsForCertRenewal`) are none: they are
    // looked for only on a HostedCluster that has been available and runs a
    // control-plane-operator older than v2, whose image labels say so; a new one has neither.
    let pools: &[NodePool] = &stream.node_pools;
    if !pools.iter().any(|p| p.autoscaling) {
        out.insert(
            "hypershift.openshift.io/disable-cluster-autoscaler".into(),
            json!("true"),
        );
    }
    let spot = stream.platform == HostedPlatform::Aws && pools.iter().any(|p| p.spot);
    if !spot {
        out.insert(
            "hypershift.openshift.io/disable-aws-node-termination-handler".into(),
            json!("true"),
        );
    }
    out
}

/// `spec.monitoring.metricsForwarding.mode`: `Forward` when the HostedCluster leaves it empty and
/// has the deprecated annotation; then the annotation for control-plane-operators that read only
/// it (`Forward` sets it, `None` removes it).
fn metrics_forwarding(
    spec: &mut Map<String, Value>,
    annotations: &mut std::collections::BTreeMap<String, Value>,
    hc: &Value,
) {
    let has_annotation = hc
        .pointer("/metadata/annotations")
        .and_then(Value::as_object)
        .is_some_and(|a| a.contains_key(ENABLE_METRICS_FORWARDING));
    let mode = spec
        .get("monitoring")
        .and_then(|m| m.pointer("/metricsForwarding/mode"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let mode = if mode.is_empty() && has_annotation {
        let monitoring = spec.entry("monitoring").or_insert_with(|| json!({}));
        if let Value::Object(m) = monitoring {
            let forwarding = m.entry("metricsForwarding").or_insert_with(|| json!({}));
            if let Value::Object(f) = forwarding {
                f.insert("mode".into(), json!("Forward"));
            }
        }
        "Forward".to_string()
    } else {
        mode
    };
    match mode.as_str() {
        "Forward" => {
            annotations.insert(ENABLE_METRICS_FORWARDING.into(), json!("true"));
        }
        "None" => {
            annotations.remove(ENABLE_METRICS_FORWARDING);
        }
        _ => {}
    }
}

/// The labels: those OCM manages, copied; and the one Cluster API's Cluster controller puts on
/// its control plane object (`cluster.x-k8s.io/cluster-name`, the Cluster being named after the
/// infraID: `controlplaneoperator.CAPICluster`), which the stored HostedControlPlane carries
/// whenever the platform has a Cluster API infrastructure object (none on `None`, nor on
/// IBM Cloud's UPI, Classic and VPC providers: `ReconcileCAPIInfraCR` of each platform).
fn labels(hc: &Value, platform: HostedPlatform) -> Map<String, Value> {
    let mut out: Map<String, Value> = hc
        .pointer("/metadata/labels")
        .and_then(Value::as_object)
        .map(|l| {
            l.iter()
                .filter(|(k, _)| k.starts_with(OCM_LABEL_PREFIX))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .unwrap_or_default();
    let provider_type = hc
        .pointer("/spec/platform/ibmcloud/providerType")
        .and_then(Value::as_str);
    let capi = match platform {
        HostedPlatform::None => false,
        HostedPlatform::IbmCloud => !matches!(provider_type, Some("UPI" | "Classic" | "VPC")),
        _ => true,
    };
    if capi {
        out.insert(
            "cluster.x-k8s.io/cluster-name".into(),
            hc.pointer("/spec/infraID").cloned().unwrap_or(json!("")),
        );
    }
    out
}

/// The spec (`reconcileHostedControlPlane`), field by field.
// Reads better whole: one statement per field of HostedControlPlaneSpec, in HyperShift's order.
fn copied_spec(spec: &Value, platform: HostedPlatform) -> Map<String, Value> {
    let mut out = Map::new();
    let given = |key: &str| spec.get(key).filter(|v| !v.is_null()).cloned();
    let copy =
        |out: &mut Map<String, Value>, key: &str, always: Option<Value>| match (given(key), always)
        {
            (Some(v), _) | (None, Some(v)) => {
                out.insert(key.into(), v);
            }
            (None, None) => {}
        };
    copy(&mut out, "updateService", None);
    copy(&mut out, "channel", None);
    out.insert(
        "releaseImage".into(),
        spec.pointer("/release/image").cloned().unwrap_or(json!("")),
    );
    if let Some(image) = spec.pointer("/controlPlaneRelease/image") {
        out.insert("controlPlaneReleaseImage".into(), image.clone());
    }
    out.insert("pullSecret".into(), json!({"name": "pull-secret"}));
    let ssh = spec.pointer("/sshKey/name").and_then(Value::as_str);
    out.insert(
        "sshKey".into(),
        match ssh {
            Some(name) if !name.is_empty() => json!({"name": "ssh-key"}),
            _ => json!({}),
        },
    );
    if spec
        .pointer("/auditWebhook/name")
        .and_then(Value::as_str)
        .is_some_and(|n| !n.is_empty())
    {
        copy(&mut out, "auditWebhook", None);
    }
    copy(&mut out, "fips", Some(json!(false)));
    copy(&mut out, "issuerURL", Some(json!("")));
    copy(&mut out, "serviceAccountSigningKey", None);
    copy(&mut out, "networking", Some(json!({})));
    copy(&mut out, "clusterID", None);
    copy(&mut out, "infraID", Some(json!("")));
    copy(&mut out, "dns", Some(json!({"baseDomain": ""})));
    copy(&mut out, "services", None);
    copy(&mut out, "controllerAvailabilityPolicy", None);
    copy(&mut out, "infrastructureAvailabilityPolicy", None);
    out.insert("etcd".into(), etcd(spec));
    copy(&mut out, "imageContentSources", None);
    if given("additionalTrustBundle").is_some() {
        out.insert(
            "additionalTrustBundle".into(),
            json!({"name": "user-ca-bundle"}),
        );
    }
    copy(&mut out, "secretEncryption", None);
    copy(&mut out, "kubeAPIServerDNSName", None);
    copy(&mut out, "pausedUntil", None);
    copy(&mut out, "olmCatalogPlacement", None);
    copy(&mut out, "autoscaling", Some(json!({})));
    copy(&mut out, "autoNode", None);
    copy(&mut out, "nodeSelector", None);
    copy(&mut out, "tolerations", None);
    copy(&mut out, "labels", None);
    copy(&mut out, "platform", Some(json!({"type": ""})));
    if platform == HostedPlatform::Agent {
        // The Agent platform's control plane is of type None.
        if let Some(Value::Object(p)) = out.get_mut("platform") {
            p.insert("type".into(), json!(HostedPlatform::None.as_str()));
        }
    }
    copy(&mut out, "configuration", None);
    copy(&mut out, "capabilities", None);
    copy(&mut out, "operatorConfiguration", None);
    copy(&mut out, "monitoring", None);
    // `monitoring` and `autoNode` are `omitzero`: an empty one is not written.
    for key in ["monitoring", "autoNode"] {
        if out
            .get(key)
            .is_some_and(|v| v.as_object().is_some_and(Map::is_empty))
        {
            out.remove(key);
        }
    }
    out
}

/// `spec.etcd`: the management type, and the block of that type only.
fn etcd(spec: &Value) -> Value {
    let management = spec
        .pointer("/etcd/managementType")
        .cloned()
        .unwrap_or(json!(""));
    let mut etcd = Map::new();
    etcd.insert("managementType".into(), management.clone());
    for (kind, block) in [("Managed", "managed"), ("Unmanaged", "unmanaged")] {
        if management.as_str() == Some(kind)
            && let Some(value) = spec
                .get("etcd")
                .and_then(|e| e.get(block))
                .filter(|v| !v.is_null())
        {
            etcd.insert(block.into(), value.clone());
        }
    }
    Value::Object(etcd)
}
