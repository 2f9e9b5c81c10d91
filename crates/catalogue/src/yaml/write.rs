//! Writing: [`to_string`] emits one manifest. serde-saphyr quotes the YAML 1.1 booleans (`on`,
//! `yes`, `no`, …) that Kubernetes' go-yaml would otherwise read as booleans
//! (kubernetes/kubernetes#34146), and never folds long lines, so long flags stay on one line.

use anyhow::{Context as _, Result};
use serde_json::{Map, Value};

/// Serialises one value as a YAML document (no leading `---`), ending in a newline, exactly as
/// serde-saphyr writes it (see the module comment).
///
/// The structure (block mappings, `- ` items, indentation, `{}` and `[]`) and the scalars that
/// need no thought (integers, booleans, and strings of letters, digits, `-_./` and inner spaces
/// that start with a letter or `/` and are not a YAML 1.1 word such as `on` or `null`) are
/// written here; every other scalar, and a document that is not a non-empty mapping or list, is
/// written by serde-saphyr, whose quoting this module trusts. Writing it all through serde's
/// generic serialiser was a third of a render's instructions (callgrind, Azure: 1.55 M of 5.5 M);
/// tests compare the two on every golden file and on random values, byte for byte.
pub fn to_string(value: &Value) -> Result<String> {
    // Most documents are a few hundred bytes; the few larger ones grow by doubling. A 4 KiB
    // start gave each document a page of its own: 10 more page faults in an Azure render.
    let mut out = String::with_capacity(1024);
    match document(value, &mut out) {
        Ok(()) => Ok(out),
        Err(Delegate) => saphyr_to_string(value),
    }
}

/// The whole document through serde-saphyr.
pub(super) fn saphyr_to_string(value: &Value) -> Result<String> {
    let options = serde_saphyr::ser_options! {
        folded_wrap_chars: usize::MAX,
        min_fold_chars: usize::MAX,
    };
    let mut text =
        serde_saphyr::to_string_with_options(value, options).context("serialising YAML")?;
    if !text.ends_with('\n') {
        text.push('\n');
    }
    Ok(text)
}

// The block-style writer behind [`to_string`].

/// The document holds something [`document`] leaves to serde-saphyr as a whole.
pub(super) struct Delegate;

/// Writes a non-empty mapping or list as a document.
pub(super) fn document(value: &Value, out: &mut String) -> Result<(), Delegate> {
    match value {
        Value::Object(map) if !map.is_empty() => mapping(map, 0, false, out),
        Value::Array(list) if !list.is_empty() => sequence(list, 0, false, out),
        _ => Err(Delegate),
    }
}

/// `n` spaces, copied from a run of them: pushed one `char` at a time they took some 17
/// instructions a space.
fn indent(out: &mut String, n: usize) {
    const SPACES: &str = "                                                                ";
    let mut left = n;
    while left > 0 {
        let run = left.min(SPACES.len());
        out.push_str(&SPACES[..run]);
        left -= run;
    }
}

// What a byte may be in the scans below, one table lookup a byte. As chains of comparisons the
// scans took 10 to 18 instructions a byte of every string written, a tenth of an Azure render's
// instructions (callgrind on the shipped build).

/// A letter, digit, `-`, `_`, `.`, `/` or space: plain anywhere in a key.
pub(super) const KEY: u8 = 1;
/// Printable ASCII (space to `~`).
pub(super) const PRINTABLE: u8 = 2;
/// Printable ASCII but `#` and `:`, which are plain in a value only where no space follows
/// `:` or precedes `#`.
pub(super) const PLAIN: u8 = 4;
/// Printable ASCII or a line break: a line of a `|` block.
pub(super) const BLOCK: u8 = 8;

pub(super) static CLASSES: [u8; 256] = classes();

const fn classes() -> [u8; 256] {
    let mut table = [0; 256];
    let mut i = 0;
    while i < table.len() {
        #[allow(clippy::cast_possible_truncation)] // i < 256
        let b = i as u8;
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/' | b' ') {
            table[i] |= KEY;
        }
        if matches!(b, b' '..=b'~') {
            table[i] |= PRINTABLE | BLOCK;
            if !matches!(b, b'#' | b':') {
                table[i] |= PLAIN;
            }
        }
        if b == b'\n' {
            table[i] |= BLOCK;
        }
        i += 1;
    }
    table
}

/// Every byte of `bytes` is of `class`.
fn all_of(bytes: &[u8], class: u8) -> bool {
    bytes.iter().all(|&b| CLASSES[usize::from(b)] & class != 0)
}

/// A mapping whose keys sit at column `at`; the first key follows what is already on the
/// line when `inline` (after `- `).
fn mapping(
    map: &Map<String, Value>,
    at: usize,
    inline: bool,
    out: &mut String,
) -> Result<(), Delegate> {
    for (i, (key, value)) in map.iter().enumerate() {
        if i > 0 || !inline {
            indent(out, at);
        }
        if is_simple(key) {
            out.push_str(key);
        } else {
            delegated_key(key, out)?;
        }
        out.push(':');
        match value {
            Value::Object(inner) if inner.is_empty() => out.push_str(" {}\n"),
            Value::Array(inner) if inner.is_empty() => out.push_str(" []\n"),
            Value::Object(inner) => {
                out.push('\n');
                mapping(inner, at + 2, false, out)?;
            }
            // A list under a key is not indented (`key:` then `- item` in the same column).
            Value::Array(inner) => {
                out.push('\n');
                sequence(inner, at, false, out)?;
            }
            scalar => {
                out.push(' ');
                self::scalar(scalar, at, out)?;
            }
        }
    }
    Ok(())
}

/// A list whose `- ` sit at column `at`; the first item follows what is already on the line
/// when `inline`.
fn sequence(list: &[Value], at: usize, inline: bool, out: &mut String) -> Result<(), Delegate> {
    for (i, item) in list.iter().enumerate() {
        if i > 0 || !inline {
            indent(out, at);
        }
        out.push('-');
        match item {
            Value::Object(inner) if inner.is_empty() => out.push_str(" {}\n"),
            Value::Array(inner) if inner.is_empty() => out.push_str(" []\n"),
            Value::Object(inner) => {
                out.push(' ');
                mapping(inner, at + 2, true, out)?;
            }
            Value::Array(inner) => {
                out.push(' ');
                sequence(inner, at + 2, true, out)?;
            }
            scalar => {
                out.push(' ');
                self::scalar(scalar, at, out)?;
            }
        }
    }
    Ok(())
}

/// A scalar after `key: ` or `- ` at column `at`, with its newline. Block scalars' lines are
/// indented two columns past `at`, as serde-saphyr does.
fn scalar(value: &Value, at: usize, out: &mut String) -> Result<(), Delegate> {
    match value {
        Value::String(text) if is_simple_value(text) => out.push_str(text),
        // serde-saphyr quotes these with double quotes and nothing to escape.
        Value::String(text) if text.is_empty() || is_yaml_1_1_word(text) => {
            out.push('"');
            out.push_str(text);
            out.push('"');
        }
        Value::String(text) if is_double_quoted(text) => {
            // The runs between the two characters to escape, copied whole.
            out.push('"');
            let mut rest = text.as_str();
            while let Some(at) = rest.find(['"', '\\']) {
                out.push_str(&rest[..at]);
                out.push('\\');
                out.push_str(&rest[at..=at]);
                rest = &rest[at + 1..];
            }
            out.push_str(rest);
            out.push('"');
        }
        Value::String(text) if is_simple_block(text) => {
            // `|`: lines two columns in, empty lines left empty, the one final newline kept.
            out.push_str("|\n");
            for line in text[..text.len() - 1].split('\n') {
                if !line.is_empty() {
                    indent(out, at + 2);
                    out.push_str(line);
                }
                out.push('\n');
            }
            return Ok(());
        }
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) if n.is_i64() || n.is_u64() => out.push_str(&n.to_string()),
        other => return delegated_value(other, at, out),
    }
    out.push('\n');
    Ok(())
}

/// serde-saphyr's text for a scalar in a list item, shifted to column `at`.
fn delegated_value(value: &Value, at: usize, out: &mut String) -> Result<(), Delegate> {
    let text = saphyr_to_string(&Value::Array(vec![value.clone()])).map_err(|_| Delegate)?;
    let text = text.strip_prefix("- ").ok_or(Delegate)?;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if i > 0 && line != "\n" {
            indent(out, at);
        }
        out.push_str(line);
    }
    Ok(())
}

/// serde-saphyr's text for a key, when it fits on the line (`"a b": 1`).
fn delegated_key(key: &str, out: &mut String) -> Result<(), Delegate> {
    let mut probe = Map::new();
    probe.insert(key.to_string(), Value::Bool(true));
    let text = saphyr_to_string(&Value::Object(probe)).map_err(|_| Delegate)?;
    let written = text.strip_suffix(": true\n").ok_or(Delegate)?;
    if written.contains('\n') || written.starts_with('?') {
        return Err(Delegate);
    }
    out.push_str(written);
    Ok(())
}

/// A multi-line string serde-saphyr writes as a `|` block with no indicator (a script):
/// printable ASCII and line breaks only, exactly one final line break, and a first line
/// that does not start with a space.
fn is_simple_block(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() > 1
        && bytes[0] != b' '
        && bytes[0] != b'\n'
        && bytes[bytes.len() - 1] == b'\n'
        && bytes[bytes.len() - 2] != b'\n'
        && all_of(bytes, BLOCK)
}

/// A string serde-saphyr writes plain, as a key and as a value, by a rule narrower than
/// its own: no indicator, quote, colon, hash or control character, no number or date (it
/// starts with a letter or `/`), no edge spaces, and not a YAML 1.1 boolean or null word.
pub(super) fn is_simple(text: &str) -> bool {
    let bytes = text.as_bytes();
    let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else {
        return false;
    };
    if !(first.is_ascii_alphabetic() || first == b'/') || last == b' ' {
        return false;
    }
    all_of(bytes, KEY) && !is_yaml_1_1_word(text)
}

/// A boolean, null or special float word of YAML 1.1 (or 1.2), in any case: serde-saphyr
/// quotes them so that no reader takes them for anything but a string.
fn is_yaml_1_1_word(text: &str) -> bool {
    // The words are at most five letters long.
    text.len() <= 5
        && [
            "y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf",
        ]
        .iter()
        .any(|word| text.eq_ignore_ascii_case(word))
}

/// A string serde-saphyr writes plain as a value (after `key: ` or `- `): what
/// [`is_simple`] accepts, and also flags (`--v=2`, `-c`), `key=value` labels, colons and
/// commas inside a word (`system:serviceaccount:a:b`, `https://host:6443`), image digests
/// (`@`), `$(VAR)` references, and Kubernetes quantities (`100m`, `128Mi`). Without these,
/// a render handed a dozen scalars to serde-saphyr one at a time (a twentieth of a render,
/// callgrind, vSphere). Keys keep the narrower rule.
fn is_simple_value(text: &str) -> bool {
    let bytes = text.as_bytes();
    let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else {
        return false;
    };
    if is_quantity(bytes) {
        return true;
    }
    // `-` then a letter or `-`: a flag, never a number (`-1`, `-.5`) or a list (`- a`).
    let flag = first == b'-'
        && bytes
            .get(1)
            .is_some_and(|&b| b == b'-' || b.is_ascii_alphabetic());
    if !(first.is_ascii_alphabetic() || first == b'/' || flag) || matches!(last, b' ' | b':') {
        return false;
    }
    is_plain_in_a_value(bytes) && !is_yaml_1_1_word(text.trim_start_matches('-'))
}

/// Printable ASCII, but no ` #` (a comment) and no `: ` (a mapping). The scan runs from one
/// byte that is not [`PLAIN`] to the next, so most bytes cost a lookup and a test.
fn is_plain_in_a_value(bytes: &[u8]) -> bool {
    let mut from = 0;
    while let Some(found) = bytes[from..]
        .iter()
        .position(|&b| CLASSES[usize::from(b)] & PLAIN == 0)
    {
        let at = from + found;
        let fits = match bytes[at] {
            b'#' => at > 0 && bytes[at - 1] != b' ',
            b':' => bytes.get(at + 1) != Some(&b' '),
            _ => false,
        };
        if !fits {
            return false;
        }
        from = at + 1;
    }
    true
}

/// A one-line string of printable ASCII that serde-saphyr writes in double quotes: one that
/// cannot be plain because it starts with an indicator (`!`, `'`, `{`, `*`, …), holds `: `
/// or ` #`, or ends in `:` or a space. CEL expressions, JSON in a ConfigMap and
/// annotations of JSON were handed to serde-saphyr one at a time (a twentieth of an Azure
/// render, callgrind); property tests hold this rule to serde-saphyr's output.
fn is_double_quoted(text: &str) -> bool {
    let bytes = text.as_bytes();
    let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else {
        return false;
    };
    // A lone `#` is single-quoted.
    text != "#"
        && all_of(bytes, PRINTABLE)
        && (b"!&*|>%@`[{\"'# ".contains(&first)
            || matches!(last, b':' | b' ')
            || text.contains(": ")
            || text.contains(" #"))
}

/// Digits then a Kubernetes unit suffix (`100m`, `50Mi`, `1G`): never a YAML number.
fn is_quantity(bytes: &[u8]) -> bool {
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    digits > 0
        && matches!(
            &bytes[digits..],
            b"m" | b"k" | b"M" | b"G" | b"T" | b"Ki" | b"Mi" | b"Gi" | b"Ti"
        )
}
