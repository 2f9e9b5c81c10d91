//! The command line (clap types only). See docs/cli.md: flag names and aliases are a
//! contract with bootkube.sh and installer scripts.

use camino::Utf8PathBuf;
use clap::{Args, Parser, Subcommand, ValueHint};

mod render;
mod values;
use render::render_after_help;
pub(crate) use render::{RenderArgs, RenderMode, hold_render_kinds_apart};
pub(crate) use values::{ColorChoice, OutputFormat, PairedPlatform};

/// Render OpenShift cloud controller manager objects offline.
///
/// ccm-render produces what the cluster-cloud-controller-manager operator would apply for a
/// cluster (post-install manifests), plus the cloud config, from the installer's files.
#[derive(Debug, Parser)]
#[command(name = "ccm-render", version, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub(crate) command: Command,
}

impl Cli {
    /// The command line of this process: [`Cli::parse_from_args`] of `std::env::args_os`.
    pub fn from_env() -> Self {
        Self::parse_from_args(std::env::args_os().collect())
    }

    /// What `Cli::parse_from` gives (clap prints usage errors and help and exits itself), but a
    /// `render` command line is first parsed with `render`'s arguments alone. Building the
    /// whole command (every subcommand's arguments) and dropping it was a tenth of a render
    /// (callgrind, Azure); bootkube.sh runs `render`. Only a successful parse is taken from
    /// the short path: help, `--version` and every error come from the whole command, so
    /// they read as they always did.
    pub(crate) fn parse_from_args(args: Vec<std::ffi::OsString>) -> Self {
        use clap::FromArgMatches as _;
        if args.get(1).is_some_and(|arg| arg == "render") {
            let render = hold_render_kinds_apart(RenderArgs::augment_args(
                clap::Command::new("render").no_binary_name(true),
            ));
            if let Ok(mut matches) = render.try_get_matches_from(&args[2..])
                && let Ok(render) = RenderArgs::from_arg_matches_mut(&mut matches)
            {
                return Self {
                    command: Command::Render(Box::new(render)),
                };
            }
        }
        let mut matches = Self::definition().get_matches_from(args);
        Self::from_arg_matches_mut(&mut matches).unwrap_or_else(|err| err.exit())
    }

    /// The command line clap parses: the one the types define, with `render`'s kinds of
    /// render held apart ([`hold_render_kinds_apart`]).
    pub(crate) fn definition() -> clap::Command {
        use clap::CommandFactory as _;
        Self::command().mut_subcommand("render", hold_render_kinds_apart)
    }
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Render the objects for one cluster into a directory.
    #[command(after_help = render_after_help())]
    Render(Box<RenderArgs>),
    /// List the platforms ccm-render knows and what each needs.
    #[command(after_help = PLATFORMS_EXAMPLES)]
    Platforms(PlatformsArgs),
    /// Print where each output folder (or, with --dest-dir, each rendered file) lands on the
    /// bootstrap node, for the bootkube stage.
    #[command(after_help = PLACEMENTS_EXAMPLES)]
    Placements(PlacementsArgs),
    /// Write or check a provider folder (a CCM described as data, for --provider-dir).
    #[command(subcommand, after_help = PROVIDER_EXAMPLES)]
    Provider(ProviderCommand),
    /// Render every provider across the standard variants, one folder per case, to review what
    /// a change to a provider or a template does everywhere.
    #[command(after_help = MATRIX_EXAMPLES)]
    Matrix(MatrixArgs),
    /// Compare a platform's hosted CCM (HyperShift's) with its standalone one (CCCMO's), field
    /// by field: the binary and flags, environment, image, resource requests and the cloud
    /// config's keys, from the samples matrix renders.
    #[command(after_help = COMPARE_HOSTED_EXAMPLES)]
    CompareHosted(CompareHostedArgs),
    /// List the OpenShift releases render --release accepts, the CCCMO commit each reproduces
    /// and what each changes.
    #[command(after_help = RELEASES_EXAMPLES)]
    Releases(ReleasesArgs),
    /// Print a shell completion script (the same files are committed under completions/).
    #[command(
        after_help = "Examples:\n  ccm-render completions bash > /etc/bash_completion.d/ccm-render\n  ccm-render completions zsh > \"${fpath[1]}/_ccm-render\""
    )]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// `provider` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum ProviderCommand {
    /// Write a new provider folder DIR/NAME for platform External that checks and renders as is.
    New {
        /// The provider's name (a DNS label; also the folder name and the External platformName it serves).
        #[arg(value_name = "NAME")]
        name: String,
        /// Where to create the folder NAME.
        #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath, default_value = ".")]
        dir: Utf8PathBuf,
    },
    /// Check a provider folder, or a folder of provider folders, with the checks render applies.
    Check {
        /// A provider folder (holding provider.yaml) or a folder of them.
        #[arg(value_name = "DIR", value_hint = ValueHint::DirPath)]
        dir: Utf8PathBuf,
    },
    /// Bring the catalogue under assets/ to a CCCMO checkout's templates for a release, or add
    /// a release newer than its newest; list by file what cannot be imported (a change of
    /// CCCMO's Go code), with exit status 1 then.
    Import {
        /// A checkout of cluster-cloud-controller-manager-operator (the folder holding pkg/cloud/).
        #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
        cccmo_dir: Utf8PathBuf,
        /// The release the checkout is (X.Y): one of the catalogue's, or one newer than its
        /// newest, which becomes the newest.
        #[arg(long, value_name = "VERSION")]
        release: String,
        /// ccm-render's assets folder.
        #[arg(long, value_name = "PATH", value_hint = ValueHint::DirPath, default_value = "assets")]
        assets: Utf8PathBuf,
        /// The CCCMO branch the checkout is (default: git's, else release-X.Y).
        #[arg(long, value_name = "BRANCH")]
        branch: Option<String>,
        /// The CCCMO commit the checkout is (default: git's; needed for a new release from a
        /// folder that is no git working copy).
        #[arg(long, value_name = "COMMIT")]
        commit: Option<String>,
        /// The date of that commit, YYYY-MM-DD (default: git's).
        #[arg(long, value_name = "DATE")]
        date: Option<String>,
    },
}

/// Arguments of `compare-hosted`.
#[derive(Debug, Args)]
pub(crate) struct CompareHostedArgs {
    /// The platform: AWS, Azure, GCP, OpenStack or PowerVS (with --hosted-cluster: the
    /// HostedCluster's, which it must be when given).
    #[arg(
        value_name = "PLATFORM",
        required_unless_present = "hosted_cluster",
        ignore_case = true
    )]
    pub(crate) platform: Option<PairedPlatform>,

    /// A HostedCluster, or the stream `hcp create cluster --render` prints: its hosted CCM
    /// (rendered as `render --hosted-cluster` renders it) instead of the default sample's.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath, requires = "images")]
    pub(crate) hosted_cluster: Option<Utf8PathBuf>,

    /// With --hosted-cluster: the release's image-references ImageStream.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath, requires = "hosted_cluster")]
    pub(crate) images: Option<Utf8PathBuf>,

    /// With --hosted-cluster: the HostedCluster to compare when the stream holds several.
    #[arg(long, value_name = "NAMESPACE/NAME", requires = "hosted_cluster")]
    pub(crate) name: Option<String>,

    /// With --hosted-cluster: a variable of the hypershift-operator's environment, as `render`
    /// takes it; repeat for each.
    #[arg(long, value_name = "KEY=VALUE", requires = "hosted_cluster")]
    pub(crate) operator_env: Vec<String>,
}

const COMPARE_HOSTED_EXAMPLES: &str = "\
Examples:
  ccm-render compare-hosted AWS
  # A HostedCluster of your own, as `hcp create cluster aws --render` prints it:
  ccm-render compare-hosted --hosted-cluster hostedcluster.yaml --images image-references.yaml";

const MATRIX_EXAMPLES: &str = "\
Examples:
  ccm-render matrix --dest-dir matrix
  ccm-render matrix --dest-dir matrix --provider-dir providers --diff
  ccm-render matrix --dest-dir matrix --provider-dir providers --inputs samples --check
  ccm-render matrix --dest-dir m --release 4.21 --release 4.22; diff -r m/4.21 m/4.22
  ccm-render matrix --dest-dir matrix --release all --diff
  ccm-render matrix --dest-dir matrix --cccmo-dir ~/src/cluster-cloud-controller-manager-operator --diff";

const PROVIDER_EXAMPLES: &str = "\
Examples:
  ccm-render provider new acme --dir providers
  ccm-render provider check providers/acme
  ccm-render render --provider-dir providers --infrastructure infrastructure.yaml \\
      --images images.json --dest-dir out";

/// The completion files committed under `completions/`, by shell.
pub const COMPLETION_FILES: [(clap_complete::Shell, &str); 4] = [
    (clap_complete::Shell::Bash, "ccm-render.bash"),
    (clap_complete::Shell::Zsh, "_ccm-render"),
    (clap_complete::Shell::Fish, "ccm-render.fish"),
    (clap_complete::Shell::PowerShell, "_ccm-render.ps1"),
];

/// Writes the completion script for `shell`.
pub fn write_completions(shell: clap_complete::Shell, out: &mut dyn std::io::Write) {
    use clap::CommandFactory as _;
    clap_complete::generate(shell, &mut Cli::command(), "ccm-render", out);
}

/// The man pages committed under `man/`: `ccm-render.1` and one `ccm-render-<subcommand>.1` per
/// subcommand (clap_mangen names them so; `man ccm-render-render` then works as `man git-log`
/// does), as (file name, roff text).
pub fn man_pages() -> std::io::Result<Vec<(String, Vec<u8>)>> {
    use clap::CommandFactory as _;
    // Building sets each subcommand's display name to "ccm-render-<name>".
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    let mut pages = Vec::new();
    for page in std::iter::once(command.clone()).chain(command.get_subcommands().cloned()) {
        let man = clap_mangen::Man::new(page);
        let mut roff = Vec::new();
        man.render(&mut roff)?;
        pages.push((man.get_filename(), roff));
    }
    Ok(pages)
}

const PLATFORMS_EXAMPLES: &str = "\
Examples:
  # Which images.json keys does OpenStack need?
  ccm-render platforms | grep OpenStack

  # The host files each bootstrap pod reads, for a script:
  ccm-render platforms --output json | jq -r '.platforms[] | select(.ccm) | .bootstrapHostFiles[].path'";

const PLACEMENTS_EXAMPLES: &str = "\
Examples:
  # The map: SOURCE TARGET MODE DIR-MODE, one folder a line, static pods last:
  ccm-render placements

  # Every file of a render, as the bootkube stage installs them:
  ccm-render placements --dest-dir out | while read -r src target mode dir_mode; do
      install -d -m \"$dir_mode\" \"${target%/*}\"
      install -m \"$mode\" \"out/$src\" \"$target\"
  done";

/// Arguments of `placements`.
#[derive(Debug, Args)]
pub(crate) struct PlacementsArgs {
    /// Also the post-install manifests (to /opt/openshift/manifests), as render --ignition-manifests.
    #[arg(long)]
    pub(crate) manifests: bool,

    /// A rendered directory: print one line per file in it instead of one per folder.
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub(crate) dest_dir: Option<Utf8PathBuf>,

    /// Print lines `SOURCE TARGET MODE DIR-MODE` (text) or JSON (json; see README).
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = OutputFormat::Text)]
    pub(crate) output: OutputFormat,
}

/// Arguments of `matrix`.
#[derive(Debug, Args)]
pub(crate) struct MatrixArgs {
    /// A folder of provider folders that add to or override the built-in providers.
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub(crate) provider_dir: Option<Utf8PathBuf>,

    /// A checkout of cluster-cloud-controller-manager-operator (the folder holding pkg/cloud/):
    /// the built-in providers' manifests are its pkg/cloud/<platform>/assets/*.yaml, evaluated
    /// as CCCMO evaluates them, instead of ccm-render's own copy. Without --release, the release
    /// is the one whose Go files (pkg/cloud/**/*.go) the checkout holds.
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub(crate) cccmo_dir: Option<Utf8PathBuf>,

    /// Sample inputs of your own: DIR/PROVIDER/ holds any of infrastructure.yaml,
    /// infrastructure-sno.yaml, cloud-provider-config.yaml, images.json, network.yaml,
    /// proxy.yaml, apiserver-modern.yaml and featuregate-techpreview.yaml; the others are the
    /// samples built into ccm-render.
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub(crate) inputs: Option<Utf8PathBuf>,

    /// The OpenShift release to render every case for, as `render --release` reads it
    /// (4.18 to 4.23, a full version, 5.0 and 5.1 as 4.23); repeat it for several, or give
    /// `all` for every release. Default: the newest, in folders PROVIDER/VARIANT/; with
    /// --release the folders are RELEASE/PROVIDER/VARIANT/ (RELEASE being X.Y), so that
    /// `diff -r DIR/4.21 DIR/4.22` shows what an upgrade changes. A --provider-dir provider
    /// is rendered only for the releases its spec.releases names.
    #[arg(long, value_name = "VERSION")]
    pub(crate) release: Vec<String>,

    /// Output root (created if missing): one folder PROVIDER/VARIANT/ per case
    /// (RELEASE/PROVIDER/VARIANT/ with --release).
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub(crate) dest_dir: Utf8PathBuf,

    /// Render in memory and compare with DIR; write nothing. Lists the files that would be
    /// added, changed or removed and the cases they belong to; exit status 1 when there are
    /// any, 0 when there are none.
    #[arg(long)]
    pub(crate) check: bool,

    /// Like --check, and print a unified diff of every change.
    #[arg(long)]
    pub(crate) diff: bool,

    /// Colour the --diff output: auto (when stdout is a terminal and NO_COLOR is not set),
    /// always or never.
    #[arg(long, value_name = "WHEN", value_enum, default_value_t = ColorChoice::Auto)]
    pub(crate) color: ColorChoice,

    /// How many cases to render, compare or write at once, as cargo's -j (default: the
    /// number of processors this process may run on).
    #[arg(long, short = 'j', value_name = "N")]
    pub(crate) jobs: Option<std::num::NonZeroUsize>,
}

/// Arguments of `platforms`.
#[derive(Debug, Args)]
pub(crate) struct PlatformsArgs {
    /// Print a table (text) or JSON (json; see README).
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = OutputFormat::Text)]
    pub(crate) output: OutputFormat,

    /// A folder of provider folders to list too (as render --provider-dir reads it).
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub(crate) provider_dir: Option<Utf8PathBuf>,
}

/// Arguments of `releases`.
#[derive(Debug, Args)]
pub(crate) struct ReleasesArgs {
    /// Print a table (text) or JSON (json; see README).
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = OutputFormat::Text)]
    pub(crate) output: OutputFormat,
}

const RELEASES_EXAMPLES: &str = "\
Examples:
  ccm-render releases
  # What does upgrading from 4.21 to 4.22 change? Render both and diff:
  ccm-render render --release 4.21 --infrastructure infrastructure.yaml --images images.json \\
      --dest-dir out
  ccm-render render --release 4.22 --infrastructure infrastructure.yaml --images images.json \\
      --dest-dir out --diff";

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory as _;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
        Cli::definition().debug_assert();
    }

    /// The short path for `render` gives what parsing with the whole command gives.
    #[test]
    fn render_parses_alike_with_its_own_arguments_and_the_whole_command() {
        let cases: &[&[&str]] = &[
            &[
                "--infrastructure",
                "i.yaml",
                "--images",
                "m.json",
                "--dest-dir",
                "o",
            ],
            &[
                "--cluster-infrastructure-file=i.yaml",
                "--images-file",
                "m.json",
                "--dest-dir",
                "o",
                "--prune",
                "--namespace",
                "ns",
                "--output",
                "json",
            ],
            &[
                "--install-config",
                "ic.yaml",
                "--images",
                "m.json",
                "--dest-dir",
                "o",
                "--release",
                "4.20",
            ],
        ];
        for case in cases {
            let args: Vec<std::ffi::OsString> = ["ccm-render", "render"]
                .iter()
                .chain(case.iter())
                .map(Into::into)
                .collect();
            let whole = Cli::try_parse_from(&args).expect("parses");
            let short = Cli::parse_from_args(args);
            assert_eq!(format!("{short:?}"), format!("{whole:?}"), "{case:?}");
        }
    }

    /// A flag of one kind of render cannot be given with another kind's: clap refuses it,
    /// naming both flags, from the groups alone.
    // Reads better whole: a table of command lines refused and accepted.
    #[test]
    fn a_flag_that_does_not_apply_to_the_render_asked_for_is_refused() {
        use clap::FromArgMatches as _;
        let parse = |args: &[&str]| {
            let all: Vec<&str> = [
                "ccm-render",
                "render",
                "--images",
                "i.yaml",
                "--dest-dir",
                "o",
            ]
            .iter()
            .chain(args)
            .copied()
            .collect();
            let matches = Cli::definition().try_get_matches_from(all)?;
            Cli::from_arg_matches(&matches).map(|cli| match cli.command {
                Command::Render(args) => format!("{:?}", args.mode()),
                _ => unreachable!("render"),
            })
        };
        let refused: &[&[&str]] = &[
            &["--hosted-cluster", "hc.yaml", "--namespace", "ns"],
            &["--hosted-cluster", "hc.yaml", "--infrastructure", "i.yaml"],
            &[
                "--hosted-cluster",
                "hc.yaml",
                "--hosted-control-plane",
                "hcp.yaml",
            ],
            &["--hosted-cluster", "hc.yaml", "--credentials", "c.yaml"],
            &["--hosted-cluster", "hc.yaml", "--ignition", "i.ign"],
            &["--hosted-control-plane", "hcp.yaml", "--namespace", "ns"],
            &["--hosted-control-plane", "hcp.yaml", "--release", "4.20"],
            &["--hosted-control-plane", "hcp.yaml", "--name", "ns/n"],
            &[
                "--hosted-control-plane",
                "hcp.yaml",
                "--emit-hosted-control-plane",
                "x",
            ],
            &[
                "--infrastructure",
                "i.yaml",
                "--operator-env",
                "HTTP_PROXY=x",
            ],
            &["--install-config", "ic.yaml", "--name", "ns/n"],
        ];
        for args in refused {
            let err = parse(args).expect_err("refused");
            assert!(
                matches!(
                    err.kind(),
                    clap::error::ErrorKind::ArgumentConflict
                        | clap::error::ErrorKind::MissingRequiredArgument
                ),
                "{args:?}: {err}"
            );
        }
        assert_eq!(
            parse(&[
                "--hosted-cluster",
                "hc.yaml",
                "--name",
                "ns/n",
                "--operator-env",
                "A=b"
            ])
            .expect("parses"),
            "HostedCluster(\"hc.yaml\")"
        );
        assert_eq!(
            parse(&[
                "--hosted-control-plane",
                "h.yaml",
                "--credentials",
                "c.yaml"
            ])
            .expect("parses"),
            "HostedControlPlane(\"h.yaml\")"
        );
        assert_eq!(
            parse(&["--infrastructure", "i.yaml", "--credentials", "c.yaml"]).expect("parses"),
            "Standalone"
        );
    }

    #[test]
    fn historical_render_flag_names_are_accepted() {
        let cli = Cli::try_parse_from([
            "ccm-render",
            "render",
            "--cluster-infrastructure-file",
            "i.yaml",
            "--images-file",
            "images.json",
            "--cloud-config-file",
            "c.yaml",
            "--dest-dir",
            "out",
        ])
        .expect("parses");
        let Command::Render(args) = cli.command else {
            panic!("not render");
        };
        assert_eq!(
            args.standalone.infrastructure.as_deref(),
            Some("i.yaml".into())
        );
        assert_eq!(
            args.standalone.cloud_config.as_deref(),
            Some("c.yaml".into())
        );
        assert_eq!(
            args.standalone.namespace,
            "openshift-cloud-controller-manager"
        );
    }

    #[test]
    fn colour_is_auto_on_a_terminal_unless_no_color_is_set_and_not_empty() {
        use std::ffi::OsStr;
        assert!(ColorChoice::Auto.enabled(true, None));
        assert!(ColorChoice::Auto.enabled(true, Some(OsStr::new(""))));
        assert!(!ColorChoice::Auto.enabled(true, Some(OsStr::new("1"))));
        assert!(!ColorChoice::Auto.enabled(false, None));
        assert!(ColorChoice::Always.enabled(false, Some(OsStr::new("1"))));
        assert!(!ColorChoice::Never.enabled(true, None));
    }
}
