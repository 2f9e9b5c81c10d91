//! The `ccm-trusted-ca` bundle: the CA certificates every CCM pod trusts (mounted over
//! `/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem`).
//!
//! CCCMO's trusted CA controller (pkg/controllers/trusted_ca_bundle_controller.go,
//! pkg/util/trustbundle.go) builds it from the cloud config's `ca-bundle.pem`, the Proxy's
//! trusted CA and the operator pod's system bundle, and requires every PEM block to be a
//! `CERTIFICATE` that parses as X.509. Offline there is no operator pod, so the sources are the
//! cloud config's `ca-bundle.pem` and `--ca-bundle`. The same check applies, but text outside
//! the blocks (the `# Label` comments of a system bundle, blank lines) is allowed, where CCCMO
//! rejects a whole bundle for a trailing blank line; and a certificate that two sources share
//! appears once.

use anyhow::{Context as _, Result, bail};
use base64::Engine as _;
use std::collections::BTreeSet;

/// Name of the ConfigMap.
pub(crate) const CONFIG_MAP: &str = "ccm-trusted-ca";
/// Its key.
pub(crate) const KEY: &str = "ca-bundle.crt";

/// One certificate found in a source.
struct Block {
    /// The PEM text, from BEGIN to END line, each line ending in `\n`.
    pem: String,
    /// The DER bytes, to recognise the same certificate in two sources.
    der: Vec<u8>,
}

/// A PEM block read up to its BEGIN line and not yet to its END line.
struct OpenBlock {
    /// The line number of its BEGIN line, for messages.
    start: usize,
    /// The label of its BEGIN line, which its END line must repeat.
    label: String,
    /// The base64 text read so far, without white space.
    body: String,
}

/// Merges PEM bundles, in order, into one; `sources` pairs an origin for messages (the file, or
/// the file and key) with its text. Every block is checked. None when no source is given.
pub(crate) fn bundle(sources: &[(String, &str)]) -> Result<Option<String>> {
    if sources.is_empty() {
        return Ok(None);
    }
    let mut seen = BTreeSet::new();
    let mut out = String::new();
    for (origin, text) in sources {
        let blocks = certificates(text).with_context(|| origin.clone())?;
        for block in blocks {
            if seen.insert(block.der) {
                out.push_str(&block.pem);
            }
        }
    }
    Ok(Some(out))
}

/// The certificates of one PEM text; an error for anything else between BEGIN and END lines.
fn certificates(text: &str) -> Result<Vec<Block>> {
    let mut blocks = Vec::new();
    let mut current: Option<OpenBlock> = None;
    let mut pem = String::new();
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = raw.trim_end();
        match &mut current {
            None => {
                if let Some(label) = marker(line, "BEGIN") {
                    if label != "CERTIFICATE" {
                        bail!(
                            "line {line_no}: a {label} block; only CERTIFICATE blocks belong in a CA bundle"
                        );
                    }
                    current = Some(OpenBlock {
                        start: line_no,
                        label: label.to_string(),
                        body: String::new(),
                    });
                    pem.clear();
                    pem.push_str(line);
                    pem.push('\n');
                } else if marker(line, "END").is_some() {
                    bail!("line {line_no}: an END line without a BEGIN line");
                }
            }
            Some(OpenBlock { start, label, body }) => {
                pem.push_str(line);
                pem.push('\n');
                if let Some(end) = marker(line, "END") {
                    if end != label.as_str() {
                        bail!("line {line_no}: END {end} closes BEGIN {label} of line {start}");
                    }
                    let der = base64::engine::general_purpose::STANDARD
                        .decode(body.as_bytes())
                        .with_context(|| format!("certificate at line {start}: bad base64"))?;
                    match x509_parser::parse_x509_certificate(&der) {
                        Ok(([], _)) => {}
                        Ok(_) => bail!(
                            "certificate at line {start}: trailing bytes after the certificate"
                        ),
                        Err(e) => {
                            return Err(e).with_context(|| {
                                format!("certificate at line {start}: not an X.509 certificate")
                            });
                        }
                    }
                    blocks.push(Block {
                        pem: std::mem::take(&mut pem),
                        der,
                    });
                    current = None;
                } else if line.starts_with("-----") {
                    bail!("line {line_no}: unexpected {line:?} inside the block of line {start}");
                } else if line.contains(':') {
                    bail!(
                        "certificate at line {start}: encrypted or annotated PEM (headers) is not a certificate"
                    );
                } else {
                    body.extend(line.chars().filter(|c| !c.is_whitespace()));
                }
            }
        }
    }
    if let Some(OpenBlock { start, label, .. }) = current {
        bail!("line {start}: BEGIN {label} without an END line");
    }
    if blocks.is_empty() {
        bail!("holds no PEM certificate");
    }
    Ok(blocks)
}

/// The label of a `-----BEGIN X-----` / `-----END X-----` line.
fn marker<'a>(line: &'a str, which: &str) -> Option<&'a str> {
    line.strip_prefix("-----")?
        .strip_prefix(which)?
        .strip_prefix(' ')?
        .strip_suffix("-----")
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: &str = include_str!("../../testdata/certs/one.pem");
    const TWO: &str = include_str!("../../testdata/certs/two.pem");

    fn src(origin: &str, text: &str) -> (String, String) {
        (origin.to_string(), text.to_string())
    }

    fn run(sources: &[(String, String)]) -> Result<Option<String>> {
        let borrowed: Vec<(String, &str)> = sources
            .iter()
            .map(|(o, t)| (o.clone(), t.as_str()))
            .collect();
        bundle(&borrowed)
    }

    #[test]
    fn no_source_gives_no_bundle() {
        assert_eq!(run(&[]).expect("ok"), None);
    }

    #[test]
    fn sources_are_concatenated_in_order() {
        let out = run(&[src("a", TWO), src("b", ONE)])
            .expect("ok")
            .expect("some");
        assert_eq!(out, format!("{TWO}{ONE}"));
    }

    #[test]
    fn a_certificate_in_two_sources_appears_once() {
        let out = run(&[src("a", ONE), src("b", &format!("{ONE}{TWO}"))])
            .expect("ok")
            .expect("some");
        assert_eq!(out, format!("{ONE}{TWO}"));
    }

    #[test]
    fn comments_and_blank_lines_between_blocks_are_allowed() {
        let text = format!(
            "# Label one\n{ONE}\n\n# Label two\r\n{}\n\n",
            TWO.replace('\n', "\r\n")
        );
        let out = run(&[src("a", &text)]).expect("ok").expect("some");
        assert_eq!(out, format!("{ONE}{TWO}"));
    }

    #[test]
    fn a_private_key_is_refused_with_its_line() {
        let text = format!("{ONE}-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
        let err = run(&[src("--ca-bundle x.pem", &text)]).expect_err("key");
        assert_eq!(
            format!("{err:#}"),
            "--ca-bundle x.pem: line 12: a PRIVATE KEY block; only CERTIFICATE blocks belong in a CA bundle"
        );
    }

    #[test]
    fn a_block_that_is_not_x509_is_refused() {
        let text = "-----BEGIN CERTIFICATE-----\naGVsbG8=\n-----END CERTIFICATE-----\n";
        let err = run(&[src("a", text)]).expect_err("not x509");
        assert!(
            format!("{err:#}").starts_with("a: certificate at line 1: not an X.509 certificate"),
            "{err}"
        );
    }

    #[test]
    fn bad_base64_and_truncated_blocks_are_refused() {
        let bad = "-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n";
        assert!(format!("{:#}", run(&[src("a", bad)]).expect_err("b64")).contains("bad base64"));
        let truncated = ONE.lines().take(4).collect::<Vec<_>>().join("\n");
        assert!(
            format!("{:#}", run(&[src("a", &truncated)]).expect_err("truncated"))
                .contains("without an END line")
        );
    }

    #[test]
    fn a_file_without_certificates_is_refused() {
        let err = run(&[src("a", "just text\n")]).expect_err("empty");
        assert_eq!(format!("{err:#}"), "a: holds no PEM certificate");
    }
}
