//! What CCCMO's Go code says about each platform folder of `pkg/cloud/`: which built-in provider
//! it is, which asset files it applies and as which Kubernetes type, which images it passes and
//! which template values. Facts of cluster-cloud-controller-manager-operator
//! `pkg/cloud/<platform>/<platform>.go` at the heads ccm-render reproduces (release-4.18
//! 8abb0673 to release-4.23 bc52198c): the `templateSources` lists, the `imagesReference`
//! structs, `getTemplateValues`. An asset or folder missing here is one ccm-render does not yet
//! know how CCCMO applies, and is refused rather than guessed at.

// The module, not the type: `Platform` here is a platform folder of CCCMO.
use ccm_catalogue::platform;
use ccm_catalogue::releases::data::Version;

/// Where a template value comes from in the form the catalogue holds (see [`Value`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// `operatorConfig.GetPlatformNameString()`: the platform type.
    PlatformType,
    /// A fixed string.
    Literal(&'static str),
}

/// One template value CCCMO passes, from the release on which it does.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Value {
    /// The key (`cloudproviderName`).
    pub(crate) key: &'static str,
    /// Its value in the catalogue's form.
    pub(crate) source: Source,
    /// The first release whose `getTemplateValues` passes it (4.18: all of them).
    pub(crate) since: Version,
    /// Whether the render step sets what it becomes (the TLS flags, the feature gates, the
    /// environment values of descriptor `spec.env`): a template must use it where the render
    /// puts it, which `super::placed` checks.
    pub(crate) placed: bool,
    /// Whether CCCMO passes it empty when an OpenShift feature gate is off, which the render
    /// does with the descriptor's `spec.featureGated` (also checked by `super::placed`).
    pub(crate) gated: bool,
}

/// One asset file and the type CCCMO decodes it into.
#[derive(Debug, Clone, Copy)]
pub struct Asset {
    /// The file under `assets/`.
    pub file: &'static str,
    /// The Go type CCCMO decodes it into.
    pub type_meta: TypeMeta,
}

/// A Kubernetes Go type, as an object's `apiVersion` and `kind` name it.
#[derive(Debug, Clone, Copy)]
pub struct TypeMeta {
    /// The `apiVersion` of the Go type (what the applied object carries whatever the YAML says).
    pub(crate) api_version: &'static str,
    /// The kind.
    pub kind: &'static str,
}

/// One field of a platform's `imagesReference` struct and the image CCCMO sets it to.
#[derive(Debug, Clone, Copy)]
pub struct ImageRef {
    /// The Go field (`CloudControllerManager`), as a template names it
    /// (`{{ .images.CloudControllerManager }}`).
    pub go_field: &'static str,
    /// The images.json key whose image it holds (`config.ImagesReference.<Key>`:
    /// `cloudControllerManagerAWS`).
    pub images_key: &'static str,
}

/// One platform folder of `pkg/cloud/`.
#[derive(Debug, Clone, Copy)]
pub struct Platform {
    /// The folder (`azurestack`).
    pub folder: &'static str,
    /// The built-in provider it is (`azurestackhub`).
    pub provider: &'static str,
    /// Its `PlatformStatus.Type` (`cloudproviderName`).
    pub platform_type: platform::Platform,
    /// The Go package's `imagesReference` type, for messages as Go words them.
    pub(crate) images_type: &'static str,
    /// The fields of `imagesReference`, each with the image it holds.
    pub images: &'static [ImageRef],
    /// Every asset any supported release applies.
    pub assets: &'static [Asset],
    /// The template values besides `images`.
    pub(crate) values: &'static [Value],
}

/// A [`TypeMeta`], in one line of the table below.
const fn type_meta(api_version: &'static str, kind: &'static str) -> TypeMeta {
    TypeMeta { api_version, kind }
}

const DEPLOYMENT: TypeMeta = type_meta("apps/v1", "Deployment");
const DAEMONSET: TypeMeta = type_meta("apps/v1", "DaemonSet");
const ROLE: TypeMeta = type_meta("rbac.authorization.k8s.io/v1", "Role");
const ROLEBINDING: TypeMeta = type_meta("rbac.authorization.k8s.io/v1", "RoleBinding");
const CLUSTERROLE: TypeMeta = type_meta("rbac.authorization.k8s.io/v1", "ClusterRole");
const CLUSTERROLEBINDING: TypeMeta =
    type_meta("rbac.authorization.k8s.io/v1", "ClusterRoleBinding");
const VAP: TypeMeta = type_meta(
    "admissionregistration.k8s.io/v1",
    "ValidatingAdmissionPolicy",
);
const VAPB: TypeMeta = type_meta(
    "admissionregistration.k8s.io/v1",
    "ValidatingAdmissionPolicyBinding",
);

/// The asset `file`, decoded into `type_meta`.
const fn asset(file: &'static str, type_meta: TypeMeta) -> Asset {
    Asset { file, type_meta }
}

const fn value(key: &'static str, source: Source, since: Version) -> Value {
    Value {
        key,
        source,
        since,
        placed: false,
        gated: false,
    }
}

/// A value the render step sets (see [`Value::placed`]).
const fn placed(key: &'static str, source: Source, since: Version) -> Value {
    Value {
        key,
        source,
        since,
        placed: true,
        gated: false,
    }
}

/// A value CCCMO passes empty when a feature gate is off (see [`Value::gated`]).
const fn gated(key: &'static str, source: Source, since: Version) -> Value {
    Value {
        key,
        source,
        since,
        placed: false,
        gated: true,
    }
}

/// The catalogue's manifests hold CCCMO's output for these values; the render step then sets
/// what the cluster decides (descriptor `spec.env`, `upstreamFeatureGates`, `featureGated`, the
/// TLS flags before `spec.tls.before`). So the TLS values and `featureGates` are empty, as
/// CCCMO renders them without a TLS profile or gates, and `additionalLabels` is the value of
/// VSphereMixedNodeEnv on (the descriptor removes it when the gate is off).
const FORM: &[Value] = &[
    value(
        "cloudproviderName",
        Source::PlatformType,
        Version::new(4, 18),
    ),
    // getTemplateValues passes the TLS settings since release-4.22 (b99c3d88).
    placed("tlsCipherSuites", Source::Literal(""), Version::new(4, 22)),
    placed("tlsMinVersion", Source::Literal(""), Version::new(4, 22)),
];
/// The infrastructure name the catalogue's manifests hold (OCP_INFRASTRUCTURE_NAME, which the
/// render step sets from the Infrastructure).
const INFRASTRUCTURE_NAME: Value = placed(
    "infrastructureName",
    Source::Literal("mycluster-abcde"),
    Version::new(4, 18),
);
/// `operatorConfig.ManagedNamespace`, CCCMO's default (the render step sets it from
/// `--namespace`).
const CREDS_NAMESPACE: Value = placed(
    "globalCredsSecretNamespace",
    Source::Literal("openshift-cloud-controller-manager"),
    Version::new(4, 18),
);
const FEATURE_GATES: Value = placed("featureGates", Source::Literal(""), Version::new(4, 18));

macro_rules! values {
    ($($extra:expr),*) => {
        &[FORM[0], FORM[1], FORM[2] $(, $extra)*]
    };
}

/// Every platform folder CCCMO has at the supported release heads.
pub const PLATFORMS: &[Platform] = &[
    Platform {
        folder: "aws",
        provider: "aws",
        platform_type: platform::Platform::Aws,
        images_type: "aws.imagesReference",
        images: &[ImageRef {
            go_field: "CloudControllerManager",
            images_key: "cloudControllerManagerAWS",
        }],
        assets: &[
            asset("deployment.yaml", DEPLOYMENT),
            // Since release-4.22.
            asset("validating-admission-policy.yaml", VAP),
            asset("validating-admission-policy-binding.yaml", VAPB),
        ],
        values: values!(),
    },
    Platform {
        folder: "azure",
        provider: "azure",
        platform_type: platform::Platform::Azure,
        images_type: "azure.imagesReference",
        images: &[
            ImageRef {
                go_field: "CloudControllerManager",
                images_key: "cloudControllerManagerAzure",
            },
            ImageRef {
                go_field: "CloudControllerManagerOperator",
                images_key: "cloudControllerManagerOperator",
            },
            ImageRef {
                go_field: "CloudNodeManager",
                images_key: "cloudNodeManagerAzure",
            },
        ],
        assets: &[
            asset("cloud-controller-manager-deployment.yaml", DEPLOYMENT),
            asset("cloud-node-manager-daemonset.yaml", DAEMONSET),
            asset("azure-cloud-provider-role.yaml", ROLE),
            asset("azure-cloud-provider-rolebinding.yaml", ROLEBINDING),
            asset(
                "azure-cloud-controller-manager-clusterrole.yaml",
                CLUSTERROLE,
            ),
            asset(
                "azure-cloud-controller-manager-clusterrolebinding.yaml",
                CLUSTERROLEBINDING,
            ),
            // The YAML says admissionregistration.k8s.io/v1beta1; CCCMO decodes it into the
            // v1 type (azure.go templateSources).
            asset("validating-admission-policy.yaml", VAP),
            asset("validating-admission-policy-binding.yaml", VAPB),
            asset(
                "validating-admission-service-annotation-policy-binding.yaml",
                VAPB,
            ),
            asset("validating-admission-service-annotation-policy.yaml", VAP),
        ],
        values: values!(INFRASTRUCTURE_NAME),
    },
    Platform {
        folder: "azurestack",
        provider: "azurestackhub",
        platform_type: platform::Platform::Azure,
        images_type: "azurestack.imagesReference",
        images: &[
            ImageRef {
                go_field: "Operator",
                images_key: "cloudControllerManagerOperator",
            },
            ImageRef {
                go_field: "CloudControllerManager",
                images_key: "cloudControllerManagerAzure",
            },
            ImageRef {
                go_field: "CloudNodeManager",
                images_key: "cloudNodeManagerAzure",
            },
        ],
        assets: &[
            asset("cloud-controller-manager-deployment.yaml", DEPLOYMENT),
            asset("cloud-node-manager-daemonset.yaml", DAEMONSET),
            asset("azure-cloud-provider-role.yaml", ROLE),
            asset("azure-cloud-provider-rolebinding.yaml", ROLEBINDING),
        ],
        values: values!(INFRASTRUCTURE_NAME),
    },
    Platform {
        folder: "gcp",
        provider: "gcp",
        platform_type: platform::Platform::Gcp,
        images_type: "gcp.imagesReference",
        images: &[ImageRef {
            go_field: "CloudControllerManager",
            images_key: "cloudControllerManagerGCP",
        }],
        assets: &[
            asset("cloud-controller-manager.yaml", DEPLOYMENT),
            asset("gcp-cloud-controller-manager-clusterrole.yaml", CLUSTERROLE),
            asset(
                "gcp-cloud-controller-manager-clusterrolebinding.yaml",
                CLUSTERROLEBINDING,
            ),
            asset("validating-admission-policy-binding.yaml", VAPB),
            asset("validating-admission-policy.yaml", VAP),
        ],
        values: values!(INFRASTRUCTURE_NAME),
    },
    Platform {
        folder: "ibm",
        provider: "ibmcloud",
        platform_type: platform::Platform::IbmCloud,
        images_type: "ibm.imagesReference",
        images: &[ImageRef {
            go_field: "CloudControllerManager",
            images_key: "cloudControllerManagerIBM",
        }],
        assets: &[asset("deployment.yaml", DEPLOYMENT)],
        // ibm.go getEnablePublicEndpointValue: "true" only for PowerVS, which has its own
        // package, so "false" for IBMCloud.
        values: values!(value(
            "enablePublicEndpoint",
            Source::Literal("false"),
            Version::new(4, 18)
        )),
    },
    Platform {
        folder: "nutanix",
        provider: "nutanix",
        platform_type: platform::Platform::Nutanix,
        images_type: "nutanix.imagesReference",
        images: &[ImageRef {
            go_field: "CloudControllerManager",
            images_key: "cloudControllerManagerNutanix",
        }],
        assets: &[
            asset("cloud-controller-manager-deployment.yaml", DEPLOYMENT),
            asset("nutanix-cloud-controller-manager-role.yaml", ROLE),
            asset(
                "nutanix-cloud-controller-manager-rolebinding.yaml",
                ROLEBINDING,
            ),
            asset(
                "nutanix-cloud-controller-manager-clusterrole.yaml",
                CLUSTERROLE,
            ),
            asset(
                "nutanix-cloud-controller-manager-clusterrolebinding.yaml",
                CLUSTERROLEBINDING,
            ),
        ],
        values: values!(
            INFRASTRUCTURE_NAME,
            CREDS_NAMESPACE,
            // nutanix.go globalCredsSecretName.
            value(
                "globalCredsSecretName",
                Source::Literal("nutanix-credentials"),
                Version::new(4, 18)
            )
        ),
    },
    Platform {
        folder: "openstack",
        provider: "openstack",
        platform_type: platform::Platform::OpenStack,
        images_type: "openstack.imagesReference",
        images: &[ImageRef {
            go_field: "CloudControllerManager",
            images_key: "cloudControllerManagerOpenStack",
        }],
        assets: &[asset("deployment.yaml", DEPLOYMENT)],
        values: values!(INFRASTRUCTURE_NAME, FEATURE_GATES),
    },
    Platform {
        folder: "powervs",
        provider: "powervs",
        platform_type: platform::Platform::PowerVs,
        images_type: "powervs.imagesReference",
        images: &[ImageRef {
            go_field: "CloudControllerManager",
            images_key: "cloudControllerManagerPowerVS",
        }],
        assets: &[asset("deployment.yaml", DEPLOYMENT)],
        values: values!(),
    },
    Platform {
        folder: "vsphere",
        provider: "vsphere",
        platform_type: platform::Platform::VSphere,
        images_type: "vsphere.imagesReference",
        images: &[ImageRef {
            go_field: "CloudControllerManager",
            images_key: "cloudControllerManagerVSphere",
        }],
        assets: &[
            asset("cloud-controller-manager-deployment.yaml", DEPLOYMENT),
            asset("vsphere-cloud-controller-manager-role.yaml", ROLE),
            asset(
                "vsphere-cloud-controller-manager-rolebinding.yaml",
                ROLEBINDING,
            ),
            asset("cloud-controller-manager-rolebinding.yaml", ROLEBINDING),
            asset(
                "vsphere-cloud-controller-manager-clusterrole.yaml",
                CLUSTERROLE,
            ),
            asset(
                "vsphere-cloud-controller-manager-clusterrolebinding.yaml",
                CLUSTERROLEBINDING,
            ),
            asset(
                "cloud-controller-manager-clusterrolebinding.yaml",
                CLUSTERROLEBINDING,
            ),
        ],
        values: values!(
            INFRASTRUCTURE_NAME,
            CREDS_NAMESPACE,
            // vsphere.go globalCredsSecretName.
            value(
                "globalCredsSecretName",
                Source::Literal("vsphere-cloud-credentials"),
                Version::new(4, 18)
            ),
            FEATURE_GATES,
            // Passed since release-4.21 (6148c0cc), empty when VSphereMixedNodeEnv is off;
            // the catalogue holds it with the gate on.
            gated(
                "additionalLabels",
                Source::Literal("node.openshift.io/platform-type=vsphere"),
                Version::new(4, 21)
            )
        ),
    },
];

/// The platform of a folder.
pub(crate) fn by_folder(folder: &str) -> Option<&'static Platform> {
    PLATFORMS.iter().find(|p| p.folder == folder)
}
