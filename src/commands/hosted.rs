//! `ccm-render render --hosted-control-plane`: the CCM of a HyperShift hosted control plane, as
//! its control-plane-operator creates it (docs/hosted.md), written like every render.

use super::exit::ExitStatus;
use super::render::{Emitted, left_for_exit, write_out};
use crate::commands::cli::RenderArgs;
use crate::config::hosted::{HostedConfig, HostedFiles};
use crate::render::Rendered;
use anyhow::Result;

/// The input files a hosted `render` command line names.
pub(crate) fn hosted_files(args: &RenderArgs) -> Option<HostedFiles> {
    Some(HostedFiles {
        hosted_control_plane: args.hosted_control_plane.hosted_control_plane.clone()?,
        images: args.images.clone(),
        credentials: args.credentials.clone(),
        operator_env: args.operator_env.clone(),
    })
}

/// Renders a HostedControlPlane read already: the component of its platform from the built-in
/// catalogue, or nothing (with a warning) for a platform HyperShift builds no CCM for.
pub(crate) fn render_hosted(cfg: &HostedConfig) -> Result<Rendered> {
    match crate::catalogue::hosted::component_for(cfg.platform())? {
        Some(component) => crate::render::hosted::render(cfg, &component),
        None => Ok(Rendered {
            warnings: vec![format!(
                "HyperShift builds no CCM for the {} hosted control plane; rendering nothing",
                cfg.platform()
            )],
            ..Rendered::default()
        }),
    }
}

/// The render of `cfg` and its tree: `manifests/` only, as a hosted control plane has no
/// bootstrap node.
pub(crate) fn tree_of(cfg: &HostedConfig) -> Result<(Rendered, crate::output::Tree)> {
    let rendered = render_hosted(cfg)?;
    let mut tree = crate::output::tree(&rendered)?;
    tree.folders = vec!["manifests"];
    Ok((rendered, tree))
}

pub(crate) fn run(args: &RenderArgs) -> Result<ExitStatus> {
    if let Some(dest) = &args.dest_dir {
        crate::output::check_dest(dest)?;
    }
    let Some(files) = hosted_files(args) else {
        anyhow::bail!("--hosted-control-plane is missing");
    };
    let cfg = HostedConfig::load(&files)?;
    let (rendered, tree) = tree_of(&cfg)?;
    let release = cfg
        .images
        .release
        .clone()
        .unwrap_or_else(|| cfg.hcp.spec.release_image.clone());
    let status = write_out(args, &rendered, &tree, &release, None)?;
    left_for_exit((cfg, rendered, tree));
    Ok(status)
}

/// `render --hosted-cluster`: the HostedControlPlane the hypershift-operator derives from the
/// HostedCluster (`config/hosted_cluster/`), rendered as `--hosted-control-plane` renders one;
/// `--emit-hosted-control-plane` writes it too.
pub(crate) fn run_cluster(args: &RenderArgs) -> Result<ExitStatus> {
    if let Some(dest) = &args.dest_dir {
        crate::output::check_dest(dest)?;
    }
    let Some(hosted_cluster) = args.hosted_cluster.hosted_cluster.clone() else {
        anyhow::bail!("--hosted-cluster is missing");
    };
    let files = crate::config::hosted_cluster::HostedClusterFiles {
        hosted_cluster,
        name: args.hosted_cluster.name.clone(),
        images: args.images.clone(),
        operator_env: args.operator_env.clone(),
    };
    let (cfg, derived) = crate::config::hosted_cluster::load(&files)?;
    let (rendered, tree) = tree_of(&cfg)?;
    let release = cfg
        .images
        .release
        .clone()
        .unwrap_or_else(|| cfg.hcp.spec.release_image.clone());
    let emitted = match &args.hosted_cluster.emit_hosted_control_plane {
        Some(path) => Some(Emitted {
            path,
            text: derived.to_yaml()?,
            flag: "--emit-hosted-control-plane",
        }),
        None => None,
    };
    let status = write_out(args, &rendered, &tree, &release, emitted)?;
    left_for_exit((cfg, rendered, tree));
    Ok(status)
}
