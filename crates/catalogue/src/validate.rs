//! Checks for values that travel from an input into a manifest or a shell script.
//!
//! Every such value is checked for what it is (a DNS label, an image reference, a URL, a
//! no-proxy list), so that no input can add a field, a flag or a line to what is rendered. The
//! functions return a short reason; callers add the file and field.

use anyhow::{Result, bail};

/// An RFC 1123 DNS label: what Kubernetes accepts as a namespace name, and what the installer
/// makes infrastructure names of (`<cluster name>-<5 random characters>`).
pub fn dns_label(value: &str) -> Result<()> {
    if value.is_empty() || value.len() > 63 {
        bail!("{value:?} must be 1 to 63 characters long");
    }
    let bytes = value.as_bytes();
    let ok_char = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-';
    if !bytes.iter().all(ok_char)
        || !bytes[0].is_ascii_alphanumeric()
        || !bytes[bytes.len() - 1].is_ascii_alphanumeric()
    {
        bail!(
            "{value:?} is not a DNS label (lower-case letters, digits and '-', starting and ending with a letter or digit)"
        );
    }
    Ok(())
}

/// An RFC 1123 DNS subdomain, as Kubernetes checks the names of most objects (Secrets,
/// ConfigMaps) and the installer the base domain (`k8s.io/apimachinery` `IsDNS1123Subdomain`):
/// dot-separated labels of lower-case letters, digits and '-', 253 characters at most.
pub fn dns_subdomain(value: &str) -> Result<()> {
    if value.len() > 253 {
        bail!("must be no more than 253 characters");
    }
    let label_ok = |l: &str| {
        !l.is_empty()
            && l.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && !l.starts_with('-')
            && !l.ends_with('-')
    };
    if !value.split('.').all(label_ok) {
        bail!(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
        );
    }
    Ok(())
}

/// A namespace name.
pub fn namespace(value: &str) -> Result<()> {
    dns_label(value)
}

/// An infrastructure name (`status.infrastructureName`). The installer builds it from the cluster
/// name, which may carry upper-case letters in old clusters' Infrastructure objects; it ends up
/// in env values and resource tags, so only DNS-label characters and upper-case letters pass.
pub fn infrastructure_name(value: &str) -> Result<()> {
    dns_label(&value.to_ascii_lowercase())
}

/// An image reference: `[registry[:port]/]path[:tag][@algorithm:hex]`, as the container runtime
/// parses it (github.com/distribution/reference). Whitespace, quotes and shell characters can
/// never pass.
pub fn image_reference(value: &str) -> Result<()> {
    let bad =
        || anyhow::anyhow!("{value:?} is not an image reference (registry/name[:tag][@digest])");
    if value.is_empty() || value.len() > 4096 {
        return Err(bad());
    }
    let (name_tag, digest) = match value.split_once('@') {
        Some((n, d)) => (n, Some(d)),
        None => (value, None),
    };
    if let Some(digest) = digest {
        let Some((algo, hex)) = digest.split_once(':') else {
            return Err(bad());
        };
        let algo_ok = !algo.is_empty()
            && algo
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"+._-".contains(&b));
        let hex_ok = hex.len() >= 32 && hex.bytes().all(|b| b.is_ascii_hexdigit());
        if !algo_ok || !hex_ok {
            return Err(bad());
        }
    }
    // A tag follows the last ':' only when no '/' comes after it (else the ':' is a port).
    let (name, tag) = match name_tag.rsplit_once(':') {
        Some((n, t)) if !t.contains('/') => (n, Some(t)),
        _ => (name_tag, None),
    };
    if let Some(tag) = tag {
        let ok = !tag.is_empty()
            && tag.len() <= 128
            && tag.as_bytes()[0] != b'.'
            && tag.as_bytes()[0] != b'-'
            && tag
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b));
        if !ok {
            return Err(bad());
        }
    }
    let mut components = name.split('/').peekable();
    let mut first = true;
    while let Some(component) = components.next() {
        let is_domain = first && components.peek().is_some() && looks_like_domain(component);
        let ok = if is_domain {
            domain(component)
        } else {
            path_component(component)
        };
        if !ok {
            return Err(bad());
        }
        first = false;
    }
    Ok(())
}

fn looks_like_domain(component: &str) -> bool {
    component.contains('.') || component.contains(':') || component == "localhost"
}

fn domain(component: &str) -> bool {
    let (host, port) = match component.rsplit_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (component, None),
    };
    let host_ok = !host.is_empty()
        && host
            .split('.')
            .all(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'));
    let port_ok =
        port.is_none_or(|p| !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()));
    host_ok && port_ok
}

fn path_component(component: &str) -> bool {
    // [a-z0-9]+ separated by '.', '_', '__' or one or more '-'.
    !component.is_empty()
        && component
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"._-".contains(&b))
        && component.as_bytes()[0].is_ascii_alphanumeric()
        && component.as_bytes()[component.len() - 1].is_ascii_alphanumeric()
}

/// A proxy URL (`httpProxy`, `httpsProxy`): `http://` or `https://`, no whitespace or quotes.
pub fn proxy_url(value: &str) -> Result<()> {
    let Some(rest) = value
        .strip_prefix("http://")
        .or_else(|| value.strip_prefix("https://"))
    else {
        bail!("{value:?} is not an http:// or https:// URL");
    };
    if rest.is_empty() || !rest.bytes().all(url_byte) {
        bail!("{value:?} is not a URL (empty host, or whitespace, quotes or control characters)");
    }
    Ok(())
}

fn url_byte(b: u8) -> bool {
    b.is_ascii_graphic() && !b"\"'`\\<>{}|^".contains(&b)
}

/// A no-proxy list: comma-separated hosts, domains (`.example.com`), IPs, CIDRs or `*`.
pub fn no_proxy(value: &str) -> Result<()> {
    for entry in value.split(',') {
        // Spaces only: the installer's strings.TrimSpace would also drop a tab or a newline,
        // but CCCMO copies the list verbatim into env values, where a control character has
        // no business (found by fuzzing: ".,\t\tmple.com").
        let entry = entry.trim_matches(' ');
        let ok = entry.is_empty()
            || entry == "*"
            || entry
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b".-_:/[]%".contains(&b));
        if !ok {
            bail!("{entry:?} is not a host, domain, IP address or CIDR");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_proxy_entries_may_have_blanks_around_them_but_not_inside() {
        // installer pkg/types/validation: each comma-separated entry is trimmed before it is
        // checked, and Go's httpproxy trims them too (found by fuzzing: "a, b" is accepted).
        assert!(no_proxy(".cluster.local, 10.0.0.0/16,localhost").is_ok());
        assert!(no_proxy("example .com").is_err());
        assert!(no_proxy(".,\t\tmple.com").is_err());
        assert!(no_proxy("a,\nb").is_err());
    }

    #[test]
    fn dns_subdomains_are_dot_separated_labels() {
        assert!(dns_subdomain("gcp-ccm-cloud-credentials").is_ok());
        assert!(dns_subdomain("a.b-c").is_ok());
        assert!(dns_subdomain("a..b").is_err());
        assert!(dns_subdomain("A").is_err());
        assert!(dns_subdomain(&"a".repeat(254)).is_err());
    }

    #[test]
    fn dns_labels_accept_installer_names_and_refuse_others() {
        for ok in ["mycluster-abcde", "a", "openshift-cloud-controller-manager"] {
            assert!(dns_label(ok).is_ok(), "{ok}");
        }
        for bad in ["", "-a", "a-", "A", "a b", "a\nb", "a_b", &"a".repeat(64)] {
            assert!(dns_label(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn image_references_that_runtimes_accept_pass() {
        for ok in [
            "quay.io/openshift/origin-aws-cloud-controller-manager",
            "quay.io/openshift/origin-aws-cloud-controller-manager:v4.20",
            "registry.local:5000/ocp/release@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
            "localhost/ccm:latest",
            "ubuntu",
            "quay.io/a/b:tag@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
        ] {
            assert!(image_reference(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn image_references_with_injection_or_bad_syntax_fail() {
        for bad in [
            "",
            "quay.io/a b",
            "quay.io/a\n  - --evil",
            "quay.io/A/upper",
            "quay.io/a:",
            "quay.io/a@sha256:xyz",
            "quay.io/a:$(reboot)",
            "'quoted'",
        ] {
            assert!(image_reference(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn proxy_urls_need_a_scheme_and_no_shell_characters() {
        assert!(proxy_url("http://user:pass@proxy.example.com:3128/").is_ok());
        assert!(proxy_url("https://[fd00::1]:3128").is_ok());
        for bad in [
            "proxy:3128",
            "http://",
            "http://a b",
            "http://a\"b",
            "ftp://x",
        ] {
            assert!(proxy_url(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn no_proxy_lists_accept_hosts_domains_and_cidrs() {
        assert!(no_proxy(".cluster.local,.svc,10.0.0.0/16,fd00::/48,localhost,*").is_ok());
        assert!(no_proxy("a b").is_err());
        assert!(no_proxy("a;reboot").is_err());
    }
}
