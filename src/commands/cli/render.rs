//! `render`'s command line: the three kinds of render (a standalone cluster, a
//! HostedControlPlane, a HostedCluster), each a group of flags of its own, held apart so that a
//! flag that does not apply to the render asked for cannot be given; the flags they share; and
//! `render --help`'s examples.

use super::values::{ColorChoice, OutputFormat};
use camino::Utf8PathBuf;
use clap::{Args, ValueHint};

/// Makes each flag of a kind of render (a member of the group [`StandaloneArgs`],
/// [`HostedControlPlaneArgs`] or [`HostedClusterArgs`] make, or of several) conflict with every
/// flag that shares no kind with it, so that a flag that does not apply to the render asked for
/// cannot be given, and clap's error names the flags given. The groups are the structure; no
/// list of conflicts is kept by hand. (A conflict with a whole group would be enforced too, but
/// clap's error would then list every flag of the group.)
pub(crate) fn hold_render_kinds_apart(mut render: clap::Command) -> clap::Command {
    let kinds = [STANDALONE, HOSTED_CONTROL_PLANE, HOSTED_CLUSTER];
    // Each flag of a kind, with its kinds as bits (render runs this once per process: no
    // strings allocated).
    let mut kinds_of: Vec<(clap::Id, u8)> = Vec::with_capacity(40);
    for group in render.get_groups() {
        let Some(bit) = kinds.iter().position(|k| group.get_id() == *k) else {
            continue;
        };
        for arg in group.get_args() {
            match kinds_of.iter_mut().find(|(id, _)| id == arg) {
                Some((_, of)) => *of |= 1 << bit,
                None => kinds_of.push((arg.clone(), 1 << bit)),
            }
        }
    }
    for (arg, of) in &kinds_of {
        let apart = kinds_of
            .iter()
            .filter(|(_, other)| other & of == 0)
            .map(|(id, _)| id.clone());
        render = render.mut_arg(arg.clone(), |a| a.conflicts_with_all(apart));
    }
    render
}

const RENDER_EXAMPLES: &str = "\
Examples:
  # On the bootstrap node (bootkube.sh):
  ccm-render render \\
      --infrastructure /assets/manifests/cluster-infrastructure-02-config.yml \\
      --cloud-config /assets/manifests/cloud-provider-config.yaml \\
      --proxy /assets/manifests/cluster-proxy-01-config.yaml \\
      --network /assets/manifests/cluster-network-02-config.yml \\
      --images /assets/manifests/cloud-controller-manager-images.json \\
      --dest-dir /assets/ccm-bootstrap

  # Before `openshift-install create manifests`, from the install-config:
  ccm-render render --install-config install-config.yaml --images images.json \\
      --infrastructure-name mycluster-7xk2p --emit-infrastructure derived.yaml --dest-dir out

  # A developer: what does my change to a provider do? Render before the change, then diff:
  ccm-render render --infrastructure testdata/conformance/aws/infrastructure.yaml \\
      --images testdata/conformance/images.json \\
      --cloud-config testdata/conformance/aws/cloud-provider-config.yaml --dest-dir out
  # ... edit assets/aws/, rebuild, then the same command with:
      --dest-dir out --diff --prune --color always | less -R

  # CI: fail (exit 1) when a rendered directory is not what these inputs give; writes nothing:
  ccm-render render --infrastructure infrastructure.yaml --images images.json \\
      --dest-dir rendered --check --prune

  # The installer's asset code: an Ignition fragment to merge into bootstrap.ign:
  ccm-render render --infrastructure infrastructure.yaml --images images.json \\
      --credentials 99_cloud-creds-secret.yaml --ignition ccm-bootstrap.ign

  # HyperShift: the CCM of a HostedCluster, from what `hcp create cluster aws --render` prints:
  ccm-render render --hosted-cluster hostedcluster.yaml --images image-references.yaml \\
      --dest-dir out --emit-hosted-control-plane hcp.yaml

  # The installer's asset code: what was written, as JSON:
  ccm-render render --infrastructure infrastructure.yaml --images images.json \\
      --dest-dir out --output json

Exit status: 0 success (with --check/--diff: nothing would change), 1 with --check/--diff:
something would change, 2 usage error, bad input or I/O failure (DIR is left as it was).";

/// `render --help`'s epilogue: the examples, then what each platform needs besides the
/// install-config (the table the README holds too, from the same data).
pub(super) fn render_after_help() -> String {
    format!(
        "{RENDER_EXAMPLES}\n\n{}",
        crate::config::install_config::facts::help_table()
    )
}

/// The help heading of the `--<platform>-<fact>` flags.
const PLATFORM_FACTS: &str = "Platform facts (with --install-config)";

/// The id of the group of `render`'s flags for a standalone cluster ([`StandaloneArgs`]).
const STANDALONE: &str = "standalone";
/// The id of the group of `render --hosted-control-plane`'s own flags.
const HOSTED_CONTROL_PLANE: &str = "hosted-control-plane";
/// The id of the group of `render --hosted-cluster`'s own flags.
const HOSTED_CLUSTER: &str = "hosted-cluster";
/// `--credentials`: a flag of a standalone render and of `--hosted-control-plane` (with
/// `--hosted-cluster`, the Secrets come from its stream).
const CREDENTIALS: &str = "credentials";
/// `--operator-env`: a flag of both hosted renders.
const OPERATOR_ENV: &str = "operator_env";

/// Arguments of `render`: three kinds of render, each a group of flags of its own (a standalone
/// cluster, a HostedControlPlane, a HostedCluster; `--credentials` and `--operator-env` belong to
/// two, which the groups name), held apart by [`hold_render_kinds_apart`], and the flags every
/// kind shares.
#[derive(Debug, Args)]
#[allow(clippy::struct_excessive_bools)] // each is an independent command-line switch
pub(crate) struct RenderArgs {
    /// A standalone cluster's inputs.
    #[command(flatten)]
    pub(crate) standalone: StandaloneArgs,

    /// images.json, the cloud-controller-manager-images ConfigMap that carries it, or the release's image-references ImageStream.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath, visible_alias = "images-file")]
    pub(crate) images: Utf8PathBuf,

    /// The installer's root credentials Secret for the platform (kube-system), or the CCM's own
    /// Secret in manual mode; the files the bootstrap pod needs go under DIR/secrets/ (mode 0600).
    /// With --hosted-control-plane: the Secrets HyperShift reads from the management cluster
    /// (with --hosted-cluster they come from its stream).
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub(crate) credentials: Option<Utf8PathBuf>,

    /// Output root (created if missing): bootstrap/, config/, manifests/. Updated as one
    /// transaction that a crash leaves old or new; runs on one DIR take turns, each waiting at
    /// most CCM_RENDER_LOCK_TIMEOUT seconds (default 30). Needed unless --ignition is given.
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath, required_unless_present = "ignition")]
    pub(crate) dest_dir: Option<Utf8PathBuf>,

    /// Render in memory and compare with DIR (and the --ignition FILE); write nothing. Lists the
    /// files that would be added, changed or removed; exit status 1 when there are any, 0 when
    /// there are none.
    #[arg(long)]
    pub(crate) check: bool,

    /// Like --check, and print a unified diff of every change (credentials redacted).
    #[arg(long)]
    pub(crate) diff: bool,

    /// Also remove (with --check/--diff: report) files under bootstrap/, config/, manifests/
    /// and secrets/ that this render does not produce. Without it, no file is ever removed.
    #[arg(long, requires = "dest_dir")]
    pub(crate) prune: bool,

    /// Colour the --diff output: auto (when stdout is a terminal and NO_COLOR is not set),
    /// always or never.
    #[arg(long, value_name = "WHEN", value_enum, default_value_t = ColorChoice::Auto)]
    pub(crate) color: ColorChoice,

    /// What to print on stdout: nothing (text; a summary goes to stderr) or a JSON summary of
    /// every file (json; see README).
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = OutputFormat::Text, conflicts_with = "diff")]
    pub(crate) output: OutputFormat,

    /// A HostedControlPlane.
    #[command(flatten)]
    pub(crate) hosted_control_plane: HostedControlPlaneArgs,

    /// A HostedCluster.
    #[command(flatten)]
    pub(crate) hosted_cluster: HostedClusterArgs,

    /// With --hosted-control-plane: a variable of the control-plane-operator's environment its CCM components read (MANAGED_SERVICE, ARO_HCP_KEY_VAULT_USER_CLIENT_ID, HTTP_PROXY, HTTPS_PROXY, NO_PROXY); with --hosted-cluster, of the hypershift-operator's environment, which passes them on; repeat for each.
    #[arg(long, value_name = "KEY=VALUE")]
    pub(crate) operator_env: Vec<String>,
}

/// What a `render` command line renders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RenderMode<'a> {
    /// A standalone cluster (`--infrastructure` or `--install-config`).
    Standalone,
    /// `--hosted-control-plane FILE`.
    HostedControlPlane(&'a camino::Utf8Path),
    /// `--hosted-cluster FILE`.
    HostedCluster(&'a camino::Utf8Path),
}

impl RenderArgs {
    /// The kind of render asked for (clap has let only one kind's flags through).
    pub(crate) fn mode(&self) -> RenderMode<'_> {
        if let Some(path) = &self.hosted_control_plane.hosted_control_plane {
            RenderMode::HostedControlPlane(path)
        } else if let Some(path) = &self.hosted_cluster.hosted_cluster {
            RenderMode::HostedCluster(path)
        } else {
            RenderMode::Standalone
        }
    }
}

/// `render`'s flags for a standalone cluster: none of them applies to a hosted control plane.
#[derive(Debug, Args)]
#[group(id = STANDALONE, multiple = true, args = [CREDENTIALS])]
pub(crate) struct StandaloneArgs {
    /// The Infrastructure manifest (config.openshift.io/v1), YAML or JSON.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath, visible_alias = "cluster-infrastructure-file", required_unless_present_any = ["install_config", "hosted_control_plane", "hosted_cluster"], conflicts_with = "install_config")]
    pub(crate) infrastructure: Option<Utf8PathBuf>,

    /// install-config.yaml (or the kube-system/cluster-config-v1 ConfigMap carrying it): derive the Infrastructure, Proxy, Network and cloud config from it, as the installer would.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub(crate) install_config: Option<Utf8PathBuf>,

    /// With --install-config: the infrastructure name (InfraID); without it, a stable name derived from the install-config.
    #[arg(
        long,
        value_name = "NAME",
        requires = "install_config",
        conflicts_with = "infrastructure"
    )]
    pub(crate) infrastructure_name: Option<String>,

    /// With --install-config on IBM Cloud or PowerVS: the CIS (publish External) or DNS Services (publish Internal) instance CRN.
    #[arg(
        long,
        value_name = "CRN",
        requires = "install_config",
        conflicts_with = "infrastructure"
    )]
    pub(crate) ibm_instance_crn: Option<String>,

    /// With --install-config on Azure Stack Hub: the environment JSON the installer reads from the ARM endpoint (the config's key endpoints).
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath, requires = "install_config", conflicts_with = "cloud_config", help_heading = PLATFORM_FACTS)]
    pub(crate) azure_stack_endpoints: Option<Utf8PathBuf>,

    /// With --install-config on IBM Cloud: the region's zones, comma-separated, for pools that name none.
    #[arg(long, value_name = "ZONES", requires = "install_config", conflicts_with = "cloud_config", help_heading = PLATFORM_FACTS)]
    pub(crate) ibmcloud_zones: Option<String>,

    /// With --install-config on PowerVS with platform.powervs.vpcName: that VPC's subnets, comma-separated.
    #[arg(long, value_name = "NAMES", requires = "install_config", conflicts_with = "cloud_config", help_heading = PLATFORM_FACTS)]
    pub(crate) powervs_vpc_subnets: Option<String>,

    /// With --install-config on OpenStack with platform.openstack.externalNetwork: that network's ID.
    #[arg(long, value_name = "ID", requires = "install_config", conflicts_with = "cloud_config", help_heading = PLATFORM_FACTS)]
    pub(crate) openstack_external_network_id: Option<String>,

    /// With --install-config on OpenStack: whether the cloud has Octavia (default true, as the installer assumes when it cannot tell).
    #[arg(long, value_name = "BOOL", requires = "install_config", conflicts_with = "cloud_config", help_heading = PLATFORM_FACTS)]
    pub(crate) openstack_octavia: Option<bool>,

    /// With --install-config on OpenStack when the clouds.yaml cloud has a cacert: the PEM bundle it names.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath, requires = "install_config", conflicts_with = "cloud_config", help_heading = PLATFORM_FACTS)]
    pub(crate) openstack_ca_cert: Option<Utf8PathBuf>,

    /// With --install-config: also write the derived Infrastructure, cloud-provider-config, Proxy, Network and FeatureGate to FILE (one YAML stream).
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath, requires = "install_config", conflicts_with = "infrastructure")]
    pub(crate) emit_infrastructure: Option<Utf8PathBuf>,

    /// The cloud provider config: a ConfigMap (cloud-provider-config, kube-cloud-config) or a raw cloud.conf.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath, visible_alias = "cloud-config-file")]
    pub(crate) cloud_config: Option<Utf8PathBuf>,

    /// The Proxy manifest (config.openshift.io/v1); its status becomes HTTP(S)_PROXY/NO_PROXY.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub(crate) proxy: Option<Utf8PathBuf>,

    /// The Network manifest (config.openshift.io/v1); the vSphere cloud config reads its IP families. With --install-config, derived from it unless given.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub(crate) network: Option<Utf8PathBuf>,

    /// The FeatureGate manifest; without it, the install-config's featureSet/featureGates, else the OpenShift Default feature set.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub(crate) feature_gate: Option<Utf8PathBuf>,

    /// The APIServer manifest (TLS security profile); without it, the Intermediate profile.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub(crate) apiserver: Option<Utf8PathBuf>,

    /// Extra PEM CA bundle for the ccm-trusted-ca ConfigMap (e.g. the host's system bundle).
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub(crate) ca_bundle: Option<Utf8PathBuf>,

    /// Namespace of the post-install objects.
    #[arg(long, value_name = "NS", default_value = crate::config::DEFAULT_NAMESPACE)]
    pub(crate) namespace: String,

    /// A folder of provider folders that add to or override the built-in providers.
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub(crate) provider_dir: Option<Utf8PathBuf>,

    /// A checkout of cluster-cloud-controller-manager-operator (the folder holding pkg/cloud/):
    /// the built-in providers' manifests are its pkg/cloud/<platform>/assets/*.yaml, evaluated
    /// as CCCMO evaluates them, instead of ccm-render's own copy. Without --release, the release
    /// is the one whose Go files (pkg/cloud/**/*.go) the checkout holds.
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub(crate) cccmo_dir: Option<Utf8PathBuf>,

    /// The OpenShift release to render for, as CCCMO of that release renders it: 4.18 to 4.23,
    /// or a full version (4.20.15, 4.21.0-0.nightly-2026-01-02-030405, 4.23.0-ec.2); 5.0 and
    /// 5.1 render the 4.23 catalogue. Default: the release the --images ImageStream names, else
    /// the newest. `ccm-render releases` lists them.
    #[arg(long, value_name = "VERSION")]
    pub(crate) release: Option<String>,

    /// Also (or, without --dest-dir, only) write an Ignition config (mode 0600) whose
    /// storage.files put every file where it lands on the bootstrap node (see `placements`).
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub(crate) ignition: Option<Utf8PathBuf>,

    /// With --ignition: also the post-install manifests, to /opt/openshift/manifests.
    #[arg(long, requires = "ignition")]
    pub(crate) ignition_manifests: bool,

    /// With --ignition: the Ignition spec version to write [default: the one the installer of the
    /// release writes, 3.2.0 for 4.18 to 4.23].
    #[arg(long, value_name = "VERSION", value_enum, requires = "ignition")]
    pub(crate) ignition_version: Option<crate::output::ignition::Version>,
}

/// `render --hosted-control-plane`'s own flags.
#[derive(Debug, Args)]
#[group(id = HOSTED_CONTROL_PLANE, multiple = true, args = [CREDENTIALS, OPERATOR_ENV])]
#[command(next_help_heading = "Hosted control planes (HyperShift; docs/hosted.md)")]
pub(crate) struct HostedControlPlaneArgs {
    /// A HyperShift HostedControlPlane (hypershift.openshift.io/v1beta1): render the CCM objects HyperShift's control-plane-operator creates for it, under manifests/ (--images: the release's image-references ImageStream; see docs/hosted.md).
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub(crate) hosted_control_plane: Option<Utf8PathBuf>,
}

/// `render --hosted-cluster`'s own flags.
#[derive(Debug, Args)]
#[group(id = HOSTED_CLUSTER, multiple = true, args = [OPERATOR_ENV])]
#[command(next_help_heading = "Hosted control planes (HyperShift; docs/hosted.md)")]
pub(crate) struct HostedClusterArgs {
    /// A HyperShift HostedCluster, or the stream `hcp create cluster --render` prints (Namespace, Secrets, HostedCluster, NodePools): derive its HostedControlPlane as the hypershift-operator does and render that as --hosted-control-plane does (see docs/hosted.md).
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub(crate) hosted_cluster: Option<Utf8PathBuf>,

    /// With --hosted-cluster: the HostedCluster to render when the stream holds several.
    #[arg(long, value_name = "NAMESPACE/NAME", requires = "hosted_cluster")]
    pub(crate) name: Option<String>,

    /// With --hosted-cluster: also write the derived HostedControlPlane to FILE.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath, requires = "hosted_cluster")]
    pub(crate) emit_hosted_control_plane: Option<Utf8PathBuf>,
}
