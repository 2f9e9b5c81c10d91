//! Where each output file lands on the bootstrap node: the one map that the Ignition writer
//! ([`crate::output::ignition`]), the bootkube stage (`contrib/bootkube/`, through `ccm-render
//! placements`) and the README's table all come from, so the two delivery paths cannot disagree.
//!
//! Pure: the map is data, and [`place`] turns a path relative to `--dest-dir` and its mode
//! there into a path and a mode on the node.

pub(crate) mod read;

use crate::output::{PRIVATE_MODE, PUBLIC_MODE, Tree};
use camino::{Utf8Path, Utf8PathBuf};
use std::fmt::Write as _;

/// One folder of the output and where its files go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    /// The folder under `--dest-dir`.
    pub(crate) source: &'static str,
    /// The absolute folder on the node.
    pub target: &'static str,
    /// The mode its files get; a file that is stricter in `--dest-dir` keeps its own (see
    /// [`node_mode`]).
    pub(crate) mode: u32,
    /// The mode of `target` itself.
    pub(crate) dir_mode: u32,
    /// Only with `--ignition-manifests` (and the stage's matching choice).
    pub(crate) only_when_asked: bool,
}

/// The map, in the order the bootkube stage copies the folders: the static pods last, because
/// the kubelet starts a static pod as soon as its file appears and the pod reads the others.
///
/// * `bootstrap/`: static pods, where the kubelet's `staticPodPath` points on RHCOS.
/// * `config/` and `secrets/`: the host paths the static pods mount (`bootstrapHostFiles` in
///   each provider's descriptor); `bootstrap-secrets` is owner-only because everything in it is a
///   credential (the kubeconfig bootkube.sh copies there, and the `--credentials` files).
/// * `manifests/`: the post-install objects are the operator's to apply once the cluster runs;
///   when asked for, they go to `/opt/openshift/manifests`, the asset folder whose manifests
///   bootkube.sh's `cluster-bootstrap start` creates as soon as the API answers.
pub const MAP: [Placement; 4] = [
    Placement {
        source: "config",
        target: "/etc/kubernetes/bootstrap-configs",
        mode: PUBLIC_MODE,
        dir_mode: 0o755,
        only_when_asked: false,
    },
    Placement {
        source: crate::output::SECRETS,
        target: "/etc/kubernetes/bootstrap-secrets",
        mode: PRIVATE_MODE,
        dir_mode: 0o700,
        only_when_asked: false,
    },
    Placement {
        source: "manifests",
        target: "/opt/openshift/manifests",
        mode: PUBLIC_MODE,
        dir_mode: 0o755,
        only_when_asked: true,
    },
    Placement {
        source: "bootstrap",
        target: "/etc/kubernetes/manifests",
        mode: PUBLIC_MODE,
        dir_mode: 0o755,
        only_when_asked: false,
    },
];

/// The placements in use: every one, or all but the post-install manifests.
pub(crate) fn active(manifests: bool) -> impl Iterator<Item = &'static Placement> {
    MAP.iter().filter(move |p| manifests || !p.only_when_asked)
}

/// A file's mode on the node: the map's mode, never looser than the file's mode in
/// `--dest-dir` (bitwise and), so `config/cloud.conf` and a Secret manifest, 0600 there, stay
/// 0600 on the node, and nothing under `secrets/` is ever more than 0600.
pub(crate) fn node_mode(placement: &Placement, mode_in_dest: u32) -> u32 {
    placement.mode & mode_in_dest & 0o777
}

/// One file placed on the node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Placed {
    /// Path relative to `--dest-dir`.
    pub(crate) source: Utf8PathBuf,
    /// Absolute path on the node.
    pub(crate) target: Utf8PathBuf,
    /// Mode on the node.
    pub(crate) mode: u32,
    /// Mode of the folder that holds it on the node.
    pub(crate) dir_mode: u32,
}

/// Where the file at `relative` (to `--dest-dir`), of mode `mode` there, goes; None when its
/// folder is not placed (`manifests/` without `manifests`, or a path outside the map).
pub(crate) fn place(relative: &Utf8Path, mode: u32, manifests: bool) -> Option<Placed> {
    let mut components = relative.components();
    let folder = components.next()?.as_str();
    let rest = components.as_path();
    if rest.as_str().is_empty() {
        return None;
    }
    let placement = active(manifests).find(|p| p.source == folder)?;
    Some(Placed {
        source: relative.to_owned(),
        target: Utf8Path::new(placement.target).join(rest),
        mode: node_mode(placement, mode),
        dir_mode: placement.dir_mode,
    })
}

/// Every file of a rendered tree that the node receives, in the stage's order (see [`MAP`]),
/// and by path within a folder.
pub(crate) fn place_tree(tree: &Tree, manifests: bool) -> Vec<(Placed, &[u8])> {
    let mut placed: Vec<(Placed, &[u8])> = tree
        .files
        .iter()
        .filter_map(|(path, file)| {
            place(path, file.mode, manifests).map(|p| (p, file.bytes.as_slice()))
        })
        .collect();
    placed.sort_by_key(|(p, _)| (folder_rank(&p.source), p.source.clone()));
    placed
}

/// The position of a path's folder in [`MAP`].
pub(crate) fn folder_rank(relative: &Utf8Path) -> usize {
    let folder = relative.components().next().map(|c| c.as_str());
    MAP.iter()
        .position(|p| Some(p.source) == folder)
        .unwrap_or(MAP.len())
}

/// The map as `ccm-render placements` prints it for a shell: one line per folder,
/// `SOURCE TARGET MODE DIR-MODE` (modes as four octal digits).
pub(crate) fn map_lines(manifests: bool) -> String {
    let mut out = String::new();
    for p in active(manifests) {
        let _ = writeln!(
            out,
            "{} {} {:04o} {:04o}",
            p.source, p.target, p.mode, p.dir_mode
        );
    }
    out
}

/// Files placed, as `ccm-render placements --dest-dir` prints them: one line per file,
/// `SOURCE TARGET MODE DIR-MODE`, SOURCE relative to `--dest-dir`.
pub(crate) fn file_lines(placed: &[Placed]) -> String {
    let mut out = String::new();
    for p in placed {
        let _ = writeln!(
            out,
            "{} {} {:04o} {:04o}",
            p.source, p.target, p.mode, p.dir_mode
        );
    }
    out
}

/// The README's table (section "Where the output lands on the bootstrap node"); a test keeps
/// the README equal to it.
pub fn markdown_table() -> String {
    let mut table = String::from(
        "| in `--dest-dir` | on the bootstrap node | file mode | folder mode | placed |\n|---|---|---|---|---|\n",
    );
    for p in &MAP {
        let _ = writeln!(
            table,
            "| `{}/` | `{}/` | {:04o} | {:04o} | {} |",
            p.source,
            p.target,
            p.mode,
            p.dir_mode,
            if p.only_when_asked {
                "only with `--ignition-manifests` / `placements --manifests`"
            } else {
                "always"
            }
        );
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_folder_lands_where_the_contract_says() {
        let at = |p: &str, mode| place(Utf8Path::new(p), mode, true).expect("placed");
        let pod = at("bootstrap/pod-x.yaml", 0o644);
        assert_eq!(pod.target, "/etc/kubernetes/manifests/pod-x.yaml");
        assert_eq!((pod.mode, pod.dir_mode), (0o644, 0o755));
        let key = at("secrets/cloud.conf", 0o644);
        assert_eq!(key.target, "/etc/kubernetes/bootstrap-secrets/cloud.conf");
        assert_eq!((key.mode, key.dir_mode), (0o600, 0o700), "never looser");
        let conf = at("config/cloud.conf", 0o600);
        assert_eq!(conf.target, "/etc/kubernetes/bootstrap-configs/cloud.conf");
        assert_eq!(conf.mode, 0o600, "a stricter file keeps its mode");
        assert_eq!(
            at("manifests/secret-a.yaml", 0o600).target,
            "/opt/openshift/manifests/secret-a.yaml"
        );
    }

    #[test]
    fn manifests_are_placed_only_when_asked() {
        assert!(place(Utf8Path::new("manifests/a.yaml"), 0o644, false).is_none());
        assert!(place(Utf8Path::new("bootstrap/a.yaml"), 0o644, false).is_some());
        assert!(place(Utf8Path::new("other/a.yaml"), 0o644, true).is_none());
        assert!(place(Utf8Path::new("bootstrap"), 0o644, true).is_none());
        assert_eq!(map_lines(false).lines().count(), 3);
        assert_eq!(
            map_lines(true),
            "config /etc/kubernetes/bootstrap-configs 0644 0755\n\
             secrets /etc/kubernetes/bootstrap-secrets 0600 0700\n\
             manifests /opt/openshift/manifests 0644 0755\n\
             bootstrap /etc/kubernetes/manifests 0644 0755\n"
        );
    }

    #[test]
    fn static_pods_come_last_so_their_host_files_exist_first() {
        let mut tree = Tree::default();
        for path in ["bootstrap/a.yaml", "config/z.conf", "secrets/k"] {
            tree.files.insert(
                path.into(),
                crate::output::File {
                    bytes: b"x".to_vec(),
                    mode: 0o600,
                },
            );
        }
        let order: Vec<String> = place_tree(&tree, false)
            .into_iter()
            .map(|(p, _)| p.source.to_string())
            .collect();
        assert_eq!(order, ["config/z.conf", "secrets/k", "bootstrap/a.yaml"]);
    }
}
