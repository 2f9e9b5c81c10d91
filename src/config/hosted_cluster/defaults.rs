//! The defaults of HyperShift's CRDs (`cmd/install/assets/crds/hypershift-operator/
//! zz_generated.crd-manifests/hostedclusters-Hypershift-Default.crd.yaml` and
//! `hostedcontrolplanes-Hypershift-Default.crd.yaml`, the `default:` of each property; for GCP
//! and OpenStack, which only the TechPreviewNoUpgrade CRDs admit, theirs), applied
//! as the API server applies a structural schema's defaults: a property absent (or null) under
//! an object that is present takes its default, parents before children, so that a default
//! object takes the defaults of its own properties too. The CRDs' `default: ""` of every
//! `LocalObjectReference`'s `name` is left out, as HyperShift's stored HostedControlPlanes of
//! `testdata/hosted-cluster/` hold them (`sshKey: {}`; docs/differences-from-cccmo.md).

use ccm_catalogue::platform::HostedPlatform;
use serde_json::{Value, json};

/// One default: the path of keys from the object's root, and the value.
struct Default {
    path: &'static [&'static str],
    value: fn() -> Value,
}

macro_rules! default {
    ([$($key:literal),+], $($value:tt)+) => {
        Default { path: &[$($key),+], value: || json!($($value)+) }
    };
}

/// The defaults both CRDs declare (the HostedControlPlane's spec has the same types as the
/// HostedCluster's), parents before children.
const SHARED: &[Default] = &[
    default!(["spec", "autoscaling", "scaling"], "ScaleUpAndScaleDown"),
    default!(["spec", "capabilities"], {}),
    default!(["spec", "configuration", "apiServer", "audit"], {"profile": "Default"}),
    default!(
        ["spec", "configuration", "apiServer", "audit", "profile"],
        "Default"
    ),
    default!(["spec", "controllerAvailabilityPolicy"], "HighlyAvailable"),
    default!(
        [
            "spec",
            "etcd",
            "managed",
            "storage",
            "persistentVolume",
            "size"
        ],
        "8Gi"
    ),
    default!(
        ["spec", "infrastructureAvailabilityPolicy"],
        "SingleReplica"
    ),
    default!(["spec", "networking", "clusterNetwork"], [{"cidr": "10.132.0.0/14"}]),
    default!(["spec", "networking", "networkType"], "OVNKubernetes"),
    default!(["spec", "networking", "serviceNetwork"], [{"cidr": "172.31.0.0/16"}]),
    default!(["spec", "olmCatalogPlacement"], "management"),
    default!(
        [
            "spec",
            "operatorConfiguration",
            "clusterNetworkOperator",
            "disableMultiNetwork"
        ],
        false
    ),
    default!(
        [
            "spec",
            "operatorConfiguration",
            "ingressOperator",
            "endpointPublishingStrategy",
            "hostNetwork",
            "httpPort"
        ],
        80
    ),
    default!(
        [
            "spec",
            "operatorConfiguration",
            "ingressOperator",
            "endpointPublishingStrategy",
            "hostNetwork",
            "httpsPort"
        ],
        443
    ),
    default!(
        [
            "spec",
            "operatorConfiguration",
            "ingressOperator",
            "endpointPublishingStrategy",
            "hostNetwork",
            "statsPort"
        ],
        1936
    ),
    default!(
        [
            "spec",
            "operatorConfiguration",
            "ingressOperator",
            "endpointPublishingStrategy",
            "loadBalancer",
            "dnsManagementPolicy"
        ],
        "Managed"
    ),
    default!(["spec", "platform", "aws", "endpointAccess"], "Public"),
    default!(["spec", "platform", "aws", "multiArch"], false),
    default!(["spec", "platform", "azure", "cloud"], "AzurePublicCloud"),
    default!(["spec", "platform", "azure", "resourceGroup"], "default"),
    default!(
        ["spec", "platform", "kubevirt", "storageDriver", "type"],
        "Default"
    ),
];

/// The HostedCluster's own defaults, before the shared ones.
const HOSTED_CLUSTER: &[Default] = &[
    default!(["spec", "etcd"], {"managed": {"storage": {"persistentVolume": {"size": "8Gi"}, "type": "PersistentVolume"}}, "managementType": "Managed"}),
    default!(["spec", "issuerURL"], "https://kubernetes.default.svc"),
    default!(["spec", "networking"], {"clusterNetwork": [{"cidr": "10.132.0.0/14"}], "networkType": "OVNKubernetes", "serviceNetwork": [{"cidr": "172.31.0.0/16"}]}),
];

/// The HostedControlPlane's own defaults (its status), after the shared ones.
const HOSTED_CONTROL_PLANE: &[Default] = &[
    default!(["status", "externalManagedControlPlane"], true),
    default!(["status", "initialized"], false),
    default!(["status", "ready"], false),
];

/// The defaults only the TechPreviewNoUpgrade CRDs (`*-Hypershift-TechPreviewNoUpgrade.crd.yaml`)
/// declare, both CRDs alike. Those are the CRDs a management cluster has where it takes GCP or
/// OpenStack HostedClusters: the Default CRDs' `spec.platform.type` enum lacks both.
const TECH_PREVIEW: &[Default] = &[
    default!(
        [
            "spec",
            "operatorConfiguration",
            "clusterVersionOperator",
            "operatorLogLevel"
        ],
        "Normal"
    ),
    default!(["spec", "platform", "gcp", "endpointAccess"], "Private"),
];

/// The defaults of the feature set whose CRDs admit `platform`.
fn feature_set(platform: HostedPlatform) -> &'static [Default] {
    match platform {
        HostedPlatform::Gcp | HostedPlatform::OpenStack => TECH_PREVIEW,
        _ => &[],
    }
}

/// A HostedCluster as the API server stores it.
pub(crate) fn hosted_cluster(object: &mut Value, platform: HostedPlatform) {
    apply(
        object,
        HOSTED_CLUSTER
            .iter()
            .chain(SHARED)
            .chain(feature_set(platform)),
    );
}

/// A HostedControlPlane as the API server stores it.
pub(crate) fn hosted_control_plane(object: &mut Value, platform: HostedPlatform) {
    apply(
        object,
        SHARED
            .iter()
            .chain(HOSTED_CONTROL_PLANE)
            .chain(feature_set(platform)),
    );
}

fn apply<'a>(object: &mut Value, defaults: impl Iterator<Item = &'a Default>) {
    let mut defaults: Vec<&Default> = defaults.collect();
    // Parents first, so that a default object takes its children's defaults.
    defaults.sort_by_key(|d| d.path.len());
    for default in defaults {
        let (last, parents) = default.path.split_last().expect("a path has a key");
        let parent = if parents.is_empty() {
            Some(&mut *object)
        } else {
            ccm_catalogue::json_fields::at_mut(object, parents)
        };
        if let Some(Value::Object(map)) = parent {
            let slot = map.entry(*last).or_insert(Value::Null);
            if slot.is_null() {
                *slot = (default.value)();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_default_applies_under_a_present_parent_and_a_default_object_takes_its_childrens() {
        let mut hc = json!({"spec": {"platform": {"azure": {"location": "x"}}, "autoscaling": {}}});
        hosted_cluster(&mut hc, HostedPlatform::Azure);
        assert_eq!(hc["spec"]["platform"]["azure"]["cloud"], "AzurePublicCloud");
        assert_eq!(hc["spec"]["platform"]["azure"]["resourceGroup"], "default");
        assert!(hc["spec"]["platform"].get("aws").is_none());
        assert_eq!(hc["spec"]["autoscaling"]["scaling"], "ScaleUpAndScaleDown");
        assert_eq!(hc["spec"]["etcd"]["managementType"], "Managed");
        assert_eq!(
            hc["spec"]["controllerAvailabilityPolicy"],
            "HighlyAvailable"
        );
        let mut given = json!({"spec": {"controllerAvailabilityPolicy": "SingleReplica"}});
        hosted_cluster(&mut given, HostedPlatform::Azure);
        assert_eq!(
            given["spec"]["controllerAvailabilityPolicy"],
            "SingleReplica"
        );
    }

    #[test]
    fn gcp_and_openstack_take_the_tech_preview_crds_defaults_and_the_others_do_not() {
        let given = json!({"spec": {"platform": {"gcp": {}}, "operatorConfiguration": {"clusterVersionOperator": {}}}});
        for (platform, tech_preview) in [
            (HostedPlatform::Gcp, true),
            (HostedPlatform::OpenStack, true),
            (HostedPlatform::Aws, false),
        ] {
            let mut hc = given.clone();
            hosted_cluster(&mut hc, platform);
            let mut hcp = given.clone();
            hosted_control_plane(&mut hcp, platform);
            for object in [hc, hcp] {
                let level = &object["spec"]["operatorConfiguration"]["clusterVersionOperator"]["operatorLogLevel"];
                assert_eq!(level == "Normal", tech_preview, "{platform:?}");
                let access = &object["spec"]["platform"]["gcp"]["endpointAccess"];
                assert_eq!(access == "Private", tech_preview, "{platform:?}");
            }
        }
    }
}
