//! ccm-render does no cryptography, and this keeps it so: no crate that implements a cipher, a
//! hash, a signature or TLS is in the tree of what ships (the binary's normal dependencies, for
//! every target). OpenShift's payload scanner (openshift/check-payload) would otherwise require
//! the binary to be dynamically linked against a FIPS-capable libcrypto; with no cryptography
//! the static builds qualify for the waiver docs/security.md gives. Another crate that does
//! cryptography would need a FIPS story first: add it here only with that.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

/// Crates that implement cryptography: TLS stacks and bindings to C cryptography libraries,
/// and the RustCrypto hashes, MACs, ciphers, signatures and the traits they share.
const CRYPTO: &[&str] = &[
    "ring",
    "aws-lc-rs",
    "aws-lc-sys",
    "aws-lc-fips-sys",
    "openssl",
    "openssl-sys",
    "boring",
    "boring-sys",
    "native-tls",
    "schannel",
    "security-framework",
    "rustls",
    "libsodium-sys",
    "sodiumoxide",
    "orion",
    "digest",
    "crypto-common",
    "md-5",
    "md5",
    "md4",
    "sha1",
    "sha1_smol",
    "sha2",
    "sha3",
    "blake2",
    "blake3",
    "ripemd",
    "hmac",
    "hkdf",
    "pbkdf2",
    "scrypt",
    "argon2",
    "bcrypt",
    "cipher",
    "aead",
    "aes",
    "aes-gcm",
    "aes-gcm-siv",
    "chacha20",
    "chacha20poly1305",
    "salsa20",
    "poly1305",
    "des",
    "signature",
    "rsa",
    "dsa",
    "ecdsa",
    "ed25519",
    "ed25519-dalek",
    "x25519-dalek",
    "curve25519-dalek",
    "elliptic-curve",
    "p256",
    "p384",
    "p521",
    "k256",
    "crypto-bigint",
];

/// Families named by prefix, whatever the suffix (`rustls-pemfile`, `openssl-probe`, ...).
const CRYPTO_PREFIXES: &[&str] = &["rustls-", "aws-lc-", "openssl-", "boring-", "tokio-rustls"];

fn is_crypto(name: &str) -> bool {
    CRYPTO.contains(&name) || CRYPTO_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// `cargo metadata` of this crate, as cargo resolves it from Cargo.lock.
fn metadata() -> Value {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--locked",
            "--manifest-path",
        ])
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("cargo metadata's JSON")
}

/// Every package the shipped binary is built from (the root's normal dependencies,
/// transitively, for any target: not build-dependencies, which run on the build machine, nor
/// dev-dependencies), by name, each with the chain that brings it in.
fn shipped(metadata: &Value) -> BTreeMap<String, String> {
    let names: BTreeMap<&str, &str> = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|p| {
            (
                p["id"].as_str().expect("id"),
                p["name"].as_str().expect("name"),
            )
        })
        .collect();
    let nodes: BTreeMap<&str, &Value> = metadata["resolve"]["nodes"]
        .as_array()
        .expect("resolve.nodes")
        .iter()
        .map(|n| (n["id"].as_str().expect("id"), n))
        .collect();
    let root = metadata["resolve"]["root"].as_str().expect("resolve.root");
    let mut found = BTreeMap::new();
    let mut seen = BTreeSet::from([root]);
    let mut queue = vec![(root, names[root].to_string())];
    while let Some((id, chain)) = queue.pop() {
        for dep in nodes[id]["deps"].as_array().expect("deps") {
            let normal = dep["dep_kinds"]
                .as_array()
                .expect("dep_kinds")
                .iter()
                .any(|k| k["kind"].is_null());
            let dep_id = dep["pkg"].as_str().expect("pkg");
            if normal && seen.insert(dep_id) {
                let chain = format!("{chain} -> {}", names[dep_id]);
                found.insert(names[dep_id].to_string(), chain.clone());
                queue.push((dep_id, chain));
            }
        }
    }
    found
}

/// The crypto crates among `shipped`, each with the chain that brings it in.
fn crypto_in(shipped: &BTreeMap<String, String>) -> Vec<String> {
    shipped
        .iter()
        .filter(|(name, _)| is_crypto(name))
        .map(|(_, chain)| chain.clone())
        .collect()
}

#[test]
fn no_crate_of_the_shipped_tree_implements_cryptography() {
    let shipped = shipped(&metadata());
    // The walk reached the tree's depths: x509-parser's own parser, two levels down.
    for name in ["serde", "x509-parser", "der-parser", "flate2", "dlmalloc"] {
        assert!(
            shipped.contains_key(name),
            "{name} not found in {shipped:?}"
        );
    }
    assert_eq!(
        crypto_in(&shipped),
        Vec::<String>::new(),
        "a crate that implements cryptography entered the shipped tree (docs/security.md)"
    );
}

/// Adds a package `name` to `metadata`, as a dependency of `parent` of `kind` (None: normal).
fn with_dependency(mut metadata: Value, parent: &str, name: &str, kind: Option<&str>) -> Value {
    let id = format!("registry+https://github.com/rust-lang/crates.io-index#{name}@1.0.0");
    metadata["packages"]
        .as_array_mut()
        .expect("packages")
        .push(serde_json::json!({"id": id, "name": name}));
    let nodes = metadata["resolve"]["nodes"]
        .as_array_mut()
        .expect("resolve.nodes");
    nodes.push(serde_json::json!({"id": id, "deps": []}));
    let parent_id = {
        let packages = metadata["packages"].as_array().expect("packages");
        packages
            .iter()
            .find(|p| p["name"] == parent)
            .map(|p| p["id"].clone())
            .expect("the parent package")
    };
    let nodes = metadata["resolve"]["nodes"]
        .as_array_mut()
        .expect("resolve.nodes");
    let node = nodes
        .iter_mut()
        .find(|n| n["id"] == parent_id)
        .expect("the parent's node");
    node["deps"]
        .as_array_mut()
        .expect("deps")
        .push(serde_json::json!({
            "pkg": id,
            "dep_kinds": [{"kind": kind, "target": null}],
        }));
    metadata
}

#[test]
fn a_crypto_crate_deep_in_the_tree_is_found_with_the_chain_that_brings_it() {
    let metadata = metadata();
    for name in ["ring", "sha2", "rustls-webpki", "aws-lc-rs", "openssl-sys"] {
        let tainted = with_dependency(metadata.clone(), "der-parser", name, None);
        let found = crypto_in(&shipped(&tainted));
        assert_eq!(found.len(), 1, "{name}: {found:?}");
        assert!(
            found[0].starts_with("ccm-render -> ")
                && found[0].ends_with(&format!("der-parser -> {name}")),
            "{found:?}"
        );
    }
}

#[test]
fn a_crypto_crate_only_among_dev_or_build_dependencies_does_not_ship() {
    let metadata = metadata();
    for kind in ["dev", "build"] {
        let with = with_dependency(metadata.clone(), "ccm-render", "ring", Some(kind));
        assert_eq!(crypto_in(&shipped(&with)), Vec::<String>::new(), "{kind}");
    }
}
