//! The infrastructure name (InfraID): `<cluster name, cleaned and cut to 21 characters>-<5
//! characters>`, as `openshift/installer:pkg/asset/installconfig/clusterid.go` (`generateInfraID`)
//! builds it. The installer picks the 5 characters at random; ccm-render derives them from a hash
//! of the install-config, so that the same input always renders the same output.

use anyhow::{Result, bail};

/// `maxLen` in clusterid.go: resources named from the InfraID add suffixes such as `-ext` or
/// `-ctlp`, and most cloud name limits are about 32 characters.
pub(crate) const MAX_LEN: usize = 27;

/// Length of the suffix (`randomLen`).
const SUFFIX_LEN: usize = 5;

/// The alphabet of `k8s.io/apimachinery/pkg/util/rand.String`: no vowels, no 0, 1 or 3, so that
/// no word can be spelled by accident.
const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

/// The part of the InfraID taken from the cluster name (clusterid.go): every character other than
/// `[A-Za-z0-9-]` becomes `-`, runs of `-` collapse to one, the result is cut to
/// `MAX_LEN - (SUFFIX_LEN + 1)` characters and trailing `-` are trimmed.
pub(crate) fn base(cluster_name: &str) -> String {
    let mut cleaned = String::with_capacity(cluster_name.len());
    for c in cluster_name.chars() {
        let c = if c.is_ascii_alphanumeric() || c == '-' {
            c
        } else {
            '-'
        };
        if c == '-' && cleaned.ends_with('-') {
            continue;
        }
        cleaned.push(c);
    }
    // Only ASCII remains, so byte positions are character positions.
    cleaned.truncate(MAX_LEN - (SUFFIX_LEN + 1));
    cleaned.trim_end_matches('-').to_string()
}

/// A stable stand-in for the installer's random suffix: 5 characters of the same alphabet, taken
/// from a 64-bit FNV-1a hash of `content`.
pub(crate) fn stable_suffix(content: &[u8]) -> String {
    // FNV-1a: fixed constants, so the suffix never changes between builds or Rust versions
    // (std's DefaultHasher makes no such promise).
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in content {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let radix = ALPHABET.len() as u64;
    (0..SUFFIX_LEN)
        .map(|_| {
            // The remainder is below ALPHABET.len(), so the index is in range.
            let index = usize::try_from(hash % radix).unwrap_or_default();
            hash /= radix;
            char::from(ALPHABET[index])
        })
        .collect()
}

/// Checks an infrastructure name given on the command line. The installer never takes one (it
/// generates it); the API documents `status.infrastructureName` as at most 27 characters of
/// letters, digits and `-`, and the installer's own names are lower-case DNS labels (the cluster
/// name is a lower-case DNS subdomain). Both rules apply.
pub(crate) fn check(name: &str) -> Result<()> {
    if name.len() > MAX_LEN {
        bail!(
            "{name:?} is {} characters long; an infrastructure name has at most {MAX_LEN}",
            name.len()
        );
    }
    ccm_catalogue::validate::dns_label(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_follows_the_installer_rules() {
        assert_eq!(base("mycluster"), "mycluster");
        assert_eq!(base("my.cluster"), "my-cluster");
        assert_eq!(base("a..b"), "a-b");
        // 21 characters, then the trailing '-' goes.
        assert_eq!(base("abcdefghijklmnopqrst-uvwxyz"), "abcdefghijklmnopqrst");
        assert_eq!(base("abcdefghijklmnopqrstuvwxyz"), "abcdefghijklmnopqrstu");
    }

    #[test]
    fn suffix_is_stable_and_uses_the_apimachinery_alphabet() {
        let a = stable_suffix(b"install-config");
        assert_eq!(a, stable_suffix(b"install-config"));
        assert_ne!(a, stable_suffix(b"install-config2"));
        assert_eq!(a.len(), 5);
        assert!(a.bytes().all(|b| ALPHABET.contains(&b)), "{a}");
    }

    #[test]
    fn names_are_checked_for_length_and_characters() {
        assert!(check("mycluster-7xk2p").is_ok());
        assert!(check(&"a".repeat(28)).is_err());
        assert!(check("MyCluster-7xk2p").is_err());
        assert!(check("-a").is_err());
        assert!(check("a b").is_err());
    }
}
