//! GCP's `serviceEndpoints` (installer 4.19 and 4.20): the services each release accepts, and
//! the URLs it writes into the cloud config's `api-endpoint` and `container-api-endpoint` and
//! into the Infrastructure's `status.platformStatus.gcp.serviceEndpoints`.
//!
//! Sources (openshift/installer, the release branches):
//! * 4.19 (`OCPBUGS-79002-release-4.19` @34f7e1e355): `pkg/asset/manifests/cloudproviderconfig.go`
//!   writes the `Compute` and `Container` URLs as given; `pkg/asset/manifests/infrastructure.go`
//!   copies the list and sorts it by name (`sort.Slice`, 40a11c62fe, CORS-3919);
//!   `pkg/types/gcp/validation/platform.go` accepts the names `supportedEndpointNames`, `TagManager`
//!   among them.
//! * 4.20 (`OCPBUGS-74390-release-4.20` @e473406c3e, abc661e5f4, PR #9535): both go through
//!   `pkg/asset/installconfig/gcp/services.go`: the cloud config's through `FormatGCPEndpoint`
//!   with `SkipPath: false` (scheme `https`, the path replaced by `/compute/v1/` or
//!   `/container/v1/`), the status's through `FormatGCPEndpointList` with `SkipPath: true`
//!   (scheme `https`, one trailing `/` of the path trimmed), in the install-config's order; no
//!   `TagManager`.
//!
//! Both releases' validation (`validateServiceURL`) takes an `https` URL with a host, one
//! override per name; a URL without a scheme passes it, but not the `http.Head` of
//! `pkg/asset/installconfig/gcp/validation.go`, so the URL is an `https://` one (checked when
//! the install-config is read).

use super::installer_release::InstallerRelease;
use super::types::{Gcp, ServiceEndpoint};
use anyhow::{Result, bail};

/// `supportedEndpointNames` of 4.20 (`pkg/types/gcp/validation/platform.go`), sorted as the
/// installer's `field.NotSupported` lists them.
const SERVICES: &[&str] = &[
    "CloudResourceManager",
    "Compute",
    "Container",
    "DNS",
    "File",
    "IAM",
    "ServiceUsage",
    "Storage",
];
/// 4.19's has one more.
const TAG_MANAGER: &str = "TagManager";

/// The checks of `platform.gcp.serviceEndpoints` at a release that reads it: the names that
/// release's installer accepts, and at 4.20 a URL whose formatting ccm-render reproduces
/// exactly (an `https://` URL of a host, an optional port and a path of plain characters: Go's
/// `net/url` writes such a URL back as it was read; a query, a fragment, user information or an
/// escape it would re-encode).
pub(crate) fn check(p: &Gcp, release: InstallerRelease, at: &str) -> Result<()> {
    for (i, e) in p.service_endpoints.iter().enumerate() {
        let here = format!("{at}.serviceEndpoints[{i}]");
        let tag_manager = !release.gcp_formats_service_endpoints();
        if !(SERVICES.contains(&e.name.as_str()) || tag_manager && e.name == TAG_MANAGER) {
            let mut names: Vec<&str> = SERVICES.to_vec();
            if tag_manager {
                names.push(TAG_MANAGER);
            }
            let names: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
            bail!(
                "{here}.name: {:?}: supported values at OpenShift {}: {}",
                e.name,
                release.name(),
                names.join(", ")
            );
        }
        if release.gcp_formats_service_endpoints() && split(&e.url).is_none() {
            bail!(
                "{here}.url: {:?}: the installer of OpenShift {} rewrites the URL (FormatGCPEndpoint); ccm-render writes it as that installer does for a URL of a host, an optional port and a path of letters, digits and -._~/$&+,:;=@ only",
                e.url,
                release.name()
            );
        }
    }
    Ok(())
}

/// `https://<authority><path>` split into its authority and path, when Go's `url.Parse` and
/// `URL.String` leave both as they are.
fn split(url: &str) -> Option<(&str, &str)> {
    let rest = url.strip_prefix("https://")?;
    let (authority, path) = rest.find('/').map_or((rest, ""), |at| rest.split_at(at));
    let (host, port) = authority.rsplit_once(':').unwrap_or((authority, ""));
    let host_ok = !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._".contains(&b));
    let port_ok = port.bytes().all(|b| b.is_ascii_digit());
    let path_ok = path
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"-._~/$&+,:;=@".contains(&b));
    (host_ok && port_ok && path_ok).then_some((authority, path))
}

/// `FormatGCPEndpoint`: scheme `https`, the path's one trailing `/` trimmed, and unless
/// `skip_path` the service's path (`/compute/v1/`, `/container/v1/`, `/storage/v1/`, else `/`).
fn format_endpoint(name: &str, url: &str, skip_path: bool) -> String {
    let (authority, path) = split(url)
        .unwrap_or_else(|| unreachable!("check() refuses a URL that does not split: {url:?}"));
    let path = path.strip_suffix('/').unwrap_or(path);
    if skip_path {
        return format!("https://{authority}{path}");
    }
    let service = match name {
        "Compute" => "/compute/v1/",
        "Container" => "/container/v1/",
        "Storage" => "/storage/v1/",
        _ => "/",
    };
    format!("https://{authority}{service}")
}

/// The cloud config's `api-endpoint` and `container-api-endpoint`: the `Compute` and
/// `Container` overrides (the last of each name wins, as the installer's loop leaves it; its
/// validation allows one of each), as the release writes them.
pub(crate) fn cloud_config_overrides(
    p: &Gcp,
    release: InstallerRelease,
) -> (Option<String>, Option<String>) {
    let mut api = None;
    let mut container = None;
    for e in &p.service_endpoints {
        let url = if release.gcp_formats_service_endpoints() {
            format_endpoint(&e.name, &e.url, false)
        } else {
            e.url.clone()
        };
        match e.name.as_str() {
            "Compute" => api = Some(url),
            "Container" => container = Some(url),
            _ => {}
        }
    }
    (api, container)
}

/// The Infrastructure's `status.platformStatus.gcp.serviceEndpoints`: at 4.19 the list sorted
/// by name, at 4.20 each URL formatted without the service's path, in the given order.
pub(crate) fn status(p: &Gcp, release: InstallerRelease) -> Vec<ServiceEndpoint> {
    if release.gcp_formats_service_endpoints() {
        return p
            .service_endpoints
            .iter()
            .map(|e| ServiceEndpoint {
                name: e.name.clone(),
                url: format_endpoint(&e.name, &e.url, true),
            })
            .collect();
    }
    let mut sorted = p.service_endpoints.clone();
    // The names are unique (checked), so Go's unstable sort.Slice gives this order too.
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    sorted
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(minor: u8) -> InstallerRelease {
        InstallerRelease::of(&format!("4.{minor}")).expect("a release")
    }

    fn gcp(endpoints: &[(&str, &str)]) -> Gcp {
        Gcp {
            service_endpoints: endpoints
                .iter()
                .map(|(name, url)| ServiceEndpoint {
                    name: (*name).into(),
                    url: (*url).into(),
                })
                .collect(),
            ..Gcp::default()
        }
    }

    #[test]
    fn format_gcp_endpoint_replaces_or_trims_the_path() {
        let cases = [
            // (name, url, SkipPath false, SkipPath true)
            (
                "Compute",
                "https://compute-x.p.googleapis.com",
                "https://compute-x.p.googleapis.com/compute/v1/",
                "https://compute-x.p.googleapis.com",
            ),
            (
                "Container",
                "https://c.example.com:8443/some/path/",
                "https://c.example.com:8443/container/v1/",
                "https://c.example.com:8443/some/path",
            ),
            (
                "DNS",
                "https://d.example.com/",
                "https://d.example.com/",
                "https://d.example.com",
            ),
            (
                "Storage",
                "https://s.example.com//",
                "https://s.example.com/storage/v1/",
                "https://s.example.com/",
            ),
        ];
        for (name, url, with_path, without) in cases {
            assert_eq!(format_endpoint(name, url, false), with_path, "{url}");
            assert_eq!(format_endpoint(name, url, true), without, "{url}");
        }
    }

    #[test]
    fn the_4_19_status_is_sorted_and_4_20_keeps_the_order_and_formats() {
        let p = gcp(&[
            ("Container", "https://c.example.com/"),
            ("Compute", "https://compute.example.com/compute/v1/"),
        ]);
        let names = |list: Vec<ServiceEndpoint>| -> Vec<(String, String)> {
            list.into_iter().map(|e| (e.name, e.url)).collect()
        };
        assert_eq!(
            names(status(&p, at(19))),
            [
                (
                    "Compute".into(),
                    "https://compute.example.com/compute/v1/".into()
                ),
                ("Container".into(), "https://c.example.com/".into())
            ]
        );
        assert_eq!(
            names(status(&p, at(20))),
            [
                ("Container".into(), "https://c.example.com".into()),
                (
                    "Compute".into(),
                    "https://compute.example.com/compute/v1".into()
                )
            ]
        );
        assert_eq!(
            cloud_config_overrides(&p, at(19)),
            (
                Some("https://compute.example.com/compute/v1/".into()),
                Some("https://c.example.com/".into())
            )
        );
        assert_eq!(
            cloud_config_overrides(&p, at(20)),
            (
                Some("https://compute.example.com/compute/v1/".into()),
                Some("https://c.example.com/container/v1/".into())
            )
        );
    }

    #[test]
    fn names_and_urls_are_checked_by_release() {
        let tags = gcp(&[("TagManager", "https://t.example.com")]);
        assert!(check(&tags, at(19), "platform.gcp").is_ok());
        let e = check(&tags, at(20), "platform.gcp").expect_err("no TagManager at 4.20");
        assert!(
            e.to_string()
                .starts_with("platform.gcp.serviceEndpoints[0].name: \"TagManager\": supported values at OpenShift 4.20: \"CloudResourceManager\""),
            "{e}"
        );
        let e = check(
            &gcp(&[("OAuth", "https://o.example.com")]),
            at(19),
            "platform.gcp",
        )
        .expect_err("not the installer's");
        assert!(e.to_string().contains("\"TagManager\""), "{e}");
        let query = gcp(&[("Compute", "https://c.example.com/v1?alt=json")]);
        assert!(check(&query, at(19), "platform.gcp").is_ok());
        let e = check(&query, at(20), "platform.gcp").expect_err("not reproduced");
        assert!(
            e.to_string()
                .starts_with("platform.gcp.serviceEndpoints[0].url:"),
            "{e}"
        );
        for bad in [
            "https://user@c.example.com",
            "https://c.example.com/a%20b",
            "https://[::1]/",
        ] {
            assert!(split(bad).is_none(), "{bad}");
        }
    }
}
